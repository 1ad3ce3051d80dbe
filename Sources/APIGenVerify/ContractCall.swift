import APIGRPC
import APIGenKit
import APIManifest
import APIRuntime
import APIWireFormat
import Foundation
import HTTPTypes

/// One API's call in a contract check: the runtime definition and parameters the generated API
/// would make from the same manifest, with its parameters' examples, or why it is not called.
public struct ContractCall: Sendable {
    public var api: APIDescription
    /// `GET http://…/users/7`, or `POST grpc://…/package.Service/Method`: the request as the
    /// runtime builds it; nil when the API is not called.
    public var request: String?
    /// Why the API is not called: it changes the server, it needs an example, it streams.
    public var skipReason: String?
    /// Why the call is refused before it is sent (a header that would go in clear text).
    public var refusal: String?

    /// What the runtime sends: the API's definition and parameters, where, and with which headers.
    let definition: APIDefinition?
    let parameters: RequestBuilder
    let callOptions: APICallOptions

    /// The call of `api` on the server `options` name for it (the API's own base URL, or the
    /// workspace's, when they name none), with the headers of `options` when the API's calls
    /// carry the app's credentials (`carriesCredentials`).
    public init(_ api: APIDescription, workspace: WorkspaceDescription, options: ContractCheck.Options) {
        self.api = api
        do throws(Skip) {
            let base = try Self.server(api, workspace: workspace, options: options)
            let definition = try Self.definition(api, workspace: workspace)
            let parameters = try Self.parameters(api, models: ExampleModels(workspace.models))
            var callOptions = APICallOptions(timeout: options.callTimeout, baseURL: base)
            let home = workspace.defaults.baseURL.map { options.baseURLOverrides[$0] ?? options.baseURL ?? $0 }
            if !options.headers.isEmpty, Self.carriesCredentials(api, server: base, home: home) {
                callOptions.headers = options.headers.map { (name: $0.name, value: $0.value) }
                refusal = Self.cleartextRefusal(api, workspace: workspace, server: base)
            }
            self.definition = definition
            self.parameters = parameters
            self.callOptions = callOptions
            request = Self.describe(definition, parameters, base: base)
        } catch {
            skipReason = error.reason
            definition = nil
            parameters = RequestBuilder()
            callOptions = APICallOptions()
        }
    }

    private struct Skip: Error {
        var reason: String
    }

    /// Where the call goes: the server `options` name for the API's base URL or gRPC target, else
    /// the one for every base URL, else the API's own.
    private static func server(_ api: APIDescription, workspace: WorkspaceDescription, options: ContractCheck.Options) throws(Skip) -> String {
        switch api.shape {
        case .grpc(let grpc):
            guard !grpc.clientStreams, !grpc.serverStreams else { throw Skip(reason: "it is a \(grpc.shape) call") }
            guard api.safe else { throw Skip(reason: "neither its proto ('idempotency_level = NO_SIDE_EFFECTS') nor its manifest ('safe: true') says it has no side effects") }
            guard let target = api.baseURL.flatMap({ options.baseURLOverrides[$0] }) ?? options.grpcURL ?? api.baseURL else {
                throw Skip(reason: "it has no target: pass --grpc-url")
            }
            guard let parsed = BaseURL(target), ["grpc", "grpcs"].contains(parsed.scheme) else {
                throw Skip(reason: "'\(target)' is not grpc://host:port or grpcs://host:port")
            }
            return target
        case .customRPC(let rpc):
            throw Skip(reason: "its delegate \(rpc.delegateType) wraps calls in a way apigen does not know")
        case .rest(let rest):
            if api.response.decoding.isEventStream || api.response.decoding == .download {
                throw Skip(reason: "it answers with a stream")
            }
            if rest.method != .GET, rest.method != .HEAD {
                throw Skip(reason: "\(rest.method.rawValue) may change the server")
            }
        case .jsonRPC(let rpc):
            guard !rpc.isNotification else { throw Skip(reason: "a notification has no reply") }
            guard api.safe else { throw Skip(reason: "it is not marked 'safe: true'") }
        }
        let own = api.baseURL ?? workspace.defaults.baseURL
        guard let server = own.flatMap({ options.baseURLOverrides[$0] }) ?? options.baseURL ?? own else {
            throw Skip(reason: "it has no base URL: pass --base-url")
        }
        guard BaseURL(server) != nil else { throw Skip(reason: "'\(server)' is not a base URL") }
        return server
    }

    /// The API's definition as its generated class declares it, less what a bare call does
    /// without: no retry, cache, rate limit or duplicate policy, and no samples.
    private static func definition(_ api: APIDescription, workspace: WorkspaceDescription) throws(Skip) -> APIDefinition {
        let wire: Wire
        switch api.shape {
        case .rest(let rest):
            guard let method = HTTPRequest.Method(rest.method.rawValue) else { throw Skip(reason: "'\(rest.method.rawValue)' is not an HTTP method") }
            wire = .http(method, path: rest.path)
        case .jsonRPC(let rpc):
            let envelope = rpc.envelope.map { (name: $0.name, value: JSONValue.parse(Data($0.json.utf8)) ?? .null) }
            wire = .jsonRPC(JSONRPCMethod(rpc.method, path: rpc.path, isNotification: rpc.isNotification, envelope: envelope))
        case .grpc(let grpc):
            // `package.Service/Method`, validated against the protos.
            let slash = grpc.method.lastIndex(of: "/") ?? grpc.method.startIndex
            let service = String(grpc.method[..<slash])
            let method = String(grpc.method[slash...].dropFirst())
            wire = .grpc(GRPCMethod(service: service, method: method, shape: .unary, isIdempotent: grpc.isIdempotent))
        case .customRPC(let rpc):
            throw Skip(reason: "its delegate \(rpc.delegateType) wraps calls in a way apigen does not know")
        }
        let defaults = APIDefaults(baseURL: workspace.defaults.baseURL, headers: workspace.defaults.headers.map { (name: $0.name, value: $0.value) })
        return APIDefinition(
            name: api.manifestName, wire: wire, baseURL: api.baseURL, headers: api.headers.map { (name: $0.name, value: $0.value) },
            authenticated: api.authenticated, safe: api.safe, defaults: defaults
        )
    }

    /// The parameters as the generated initializer passes them to the request builder, each
    /// example a value of the parameter's type. A required parameter without an example leaves
    /// the API uncalled.
    private static func parameters(_ api: APIDescription, models: ExampleModels) throws(Skip) -> RequestBuilder {
        var builder = RequestBuilder()
        if let grpc = api.shape.grpc {
            // The example request, encoded from the proto's descriptors; an empty message without one.
            let message = Data(grpc.exampleRequest ?? [])
            builder.encodeMessage = { message }
            return builder
        }
        for parameter in api.parameters where !parameter.isDownloadDestination {
            let example: ExampleValue
            // Without an example, a parameter with a default is sent with it, as the generated
            // initializer's default argument is.
            // An example of null is the parameter left out, as nil is.
            let type = parameter.type.expression ?? .named(parameter.type.unwrappedSpelling)
            if let json = parameter.exampleJSON ?? parameter.defaultJSON,
               let value = ExampleValue(json: json, type: type, models: models, dateFormat: parameter.dateFormat), value.value != .null {
                example = value
            } else if parameter.type.isOptional {
                if api.shape.rpc?.structure == .byPosition { builder = builder.positional(Optional<JSONValue>.none) }
                continue
            } else {
                throw Skip(reason: "parameter '\(parameter.wireName)' has no 'example:'")
            }
            if let rpc = api.shape.rpc {
                builder = rpc.structure == .byPosition ? builder.positional(example) : builder.body(parameter.wireName, example)
                continue
            }
            guard let texts = example.parameterTexts else {
                throw Skip(reason: "the example of parameter '\(parameter.wireName)' is not a value of its type \(parameter.type.spelling)")
            }
            switch parameter.location {
            case .path:
                guard let text = texts.first, texts.count == 1 else { throw Skip(reason: "the example of path parameter '\(parameter.wireName)' is not a single value") }
                builder = builder.path(parameter.wireName, text)
            case .query:
                builder = builder.query(parameter.wireName, texts)
            case .header:
                guard let text = texts.first, texts.count == 1 else { throw Skip(reason: "the example of header parameter '\(parameter.wireName)' is not a single value") }
                builder = builder.header(parameter.wireName, text)
            case .body:
                throw Skip(reason: "a GET or HEAD request has no body")
            }
        }
        return builder
    }

    /// Whether the app's credentials go with the API's calls, as the authentication
    /// interceptor's default (`Hosts.workspace`) decides once the manager's overrides have moved
    /// them: the calls of an API that says `authenticated: true`, and the calls that go to the
    /// origin the workspace's base URL goes to (`home`); never those of an API that says
    /// `authenticated: false`.
    static func carriesCredentials(_ api: APIDescription, server: String, home: String?) -> Bool {
        // An API that goes without the authentication interceptor carries no token in the app.
        if api.skippedInterceptors.contains("authentication") { return false }
        if let authenticated = api.authenticated { return authenticated }
        guard let target = BaseURL(server), let home = home.flatMap(BaseURL.init) else { return false }
        return target.scheme == home.scheme && target.host == home.host && target.port == home.port
    }

    /// Why headers are not sent to `server`: it takes them in clear text (plain `http`, plaintext
    /// gRPC) and is not this machine, and the manifest does not itself declare that server
    /// `authenticated: true`, as the authentication interceptor refuses such a call.
    private static func cleartextRefusal(_ api: APIDescription, workspace: WorkspaceDescription, server: String) -> String? {
        guard let target = BaseURL(server), HostName.isCleartext(scheme: target.scheme, host: target.host) else { return nil }
        if api.authenticated == true, let declared = (api.baseURL ?? workspace.defaults.baseURL).flatMap(BaseURL.init),
           declared.scheme == target.scheme, declared.host == target.host, declared.port == target.port {
            return nil
        }
        return "--header is not sent in clear text to \(target.scheme)://\(target.authority), which is neither TLS nor this machine"
    }

    /// The request line as the runtime builds it.
    private static func describe(_ definition: APIDefinition, _ parameters: RequestBuilder, base: String) -> String? {
        guard let base = BaseURL(base) else { return nil }
        let request = try? parameters.makeRequest(for: definition, at: base, headers: [], timeout: .seconds(1), deadline: .now)
        return request.flatMap { request in request.url.map { "\(request.method.rawValue) \($0.absoluteString)" } }
    }
}
