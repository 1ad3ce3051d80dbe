import APIWireFormat
import APIGenKit
import APIManifest
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One API's call in a contract check: the request that calls it with its parameters'
/// examples, or why it is not called.
public struct ContractCall: Sendable {
    public enum Request: Sendable {
        case http(URLRequest)
        case grpc(GRPCUnaryCall)

        /// `GET http://…/users/7`, or `grpc://…/package.Service/Method`.
        public var description: String {
            switch self {
            case .http(let request): "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"
            case .grpc(let call): call.description
            }
        }
    }

    public var api: APIDescription
    /// The request, or nil when the API is not called.
    public var request: Request?
    /// Why the API is not called: it changes the server, it needs an example, it streams.
    public var skipReason: String?

    /// The call of `api` on the server `options` name for it (the API's own base URL, or the
    /// workspace's, when they name none), with the headers of `options` added to the
    /// workspace's and the API's own.
    public init(_ api: APIDescription, workspace: WorkspaceDescription, options: ContractCheck.Options) {
        self.api = api
        do throws(Skip) {
            if let grpc = api.grpc {
                request = .grpc(try Self.grpcCall(api, grpc, options: options))
            } else {
                request = .http(try Self.request(api, workspace: workspace, options: options))
            }
        } catch {
            skipReason = error.reason
        }
    }

    private struct Skip: Error {
        var reason: String
    }

    private static func request(
        _ api: APIDescription, workspace: WorkspaceDescription, options: ContractCheck.Options
    ) throws(Skip) -> URLRequest {
        if api.response.decoding.isEventStream || api.response.decoding == .grpcStream {
            throw Skip(reason: "it answers with a stream")
        }
        let own = api.baseURL ?? workspace.defaults.baseURL
        guard let base = own.flatMap({ options.baseURLOverrides[$0] }) ?? options.baseURL ?? own else {
            throw Skip(reason: "it has no base URL: pass --base-url")
        }
        if let method = api.rest?.method, method != .GET, method != .HEAD {
            throw Skip(reason: "\(method.rawValue) may change the server")
        }
        if let rpc = api.rpc {
            guard ["JSONRPC", "APIRuntime.JSONRPC"].contains(rpc.delegateType) else {
                throw Skip(reason: "its delegate \(rpc.delegateType) wraps calls in a way apigen does not know")
            }
            guard !rpc.isNotification else { throw Skip(reason: "a notification has no reply") }
            guard api.safe else { throw Skip(reason: "it is not marked 'safe: true'") }
        }
        let values = try parameterValues(api)
        var request: URLRequest
        if let rest = api.rest {
            request = try restRequest(api, rest, base: base, values: values)
        } else if let rpc = api.rpc {
            request = try rpcRequest(api, rpc, base: base, values: values)
        } else {
            throw Skip(reason: "it is neither REST nor JSON-RPC")
        }
        request.timeoutInterval = options.timeout
        for header in workspace.defaults.headers + api.headers + options.headers {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        for parameter in api.parameters where parameter.location == .header {
            if let text = values[parameter.swiftName]?.text { request.setValue(text, forHTTPHeaderField: parameter.wireName) }
        }
        return request
    }

    /// A unary gRPC method without side effects, called with its `example:`, or with an empty
    /// request message (every field its default).
    private static func grpcCall(_ api: APIDescription, _ grpc: GRPCDescription, options: ContractCheck.Options) throws(Skip) -> GRPCUnaryCall {
        guard !grpc.clientStreams, !grpc.serverStreams else { throw Skip(reason: "it is a \(grpc.shape) call") }
        guard api.safe else { throw Skip(reason: "neither its proto ('idempotency_level = NO_SIDE_EFFECTS') nor its manifest ('safe: true') says it has no side effects") }
        guard let base = api.baseURL.flatMap({ options.baseURLOverrides[$0] }) ?? options.grpcURL ?? api.baseURL else {
            throw Skip(reason: "it has no target: pass --grpc-url")
        }
        let metadata = (api.headers + options.headers).map { (name: $0.name.lowercased(), value: $0.value) }
        guard let call = GRPCUnaryCall(baseURL: base, fullMethod: grpc.method, message: grpc.exampleRequest ?? [], metadata: metadata, timeout: options.timeout) else {
            throw Skip(reason: "'\(base)' is not grpc://host:port or grpcs://host:port")
        }
        return call
    }

    /// Each parameter's example, by Swift name; optional ones and ones with a default may go
    /// without. A required one without an example leaves the API uncalled.
    private static func parameterValues(_ api: APIDescription) throws(Skip) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for parameter in api.parameters where !parameter.isDownloadDestination {
            if let json = parameter.exampleJSON, let value = JSONValue.parse(Data(json.utf8)) {
                values[parameter.swiftName] = value
            } else if !parameter.type.isOptional && parameter.defaultLiteral == nil {
                throw Skip(reason: "parameter '\(parameter.wireName)' has no 'example:'")
            }
        }
        return values
    }

    private static func restRequest(_ api: APIDescription, _ rest: RESTDescription, base: String, values: [String: JSONValue]) throws(Skip) -> URLRequest {
        var pathValues: [String: String] = [:]
        var query = ""
        for parameter in api.parameters {
            guard let value = values[parameter.swiftName] else { continue }
            switch parameter.location {
            case .path:
                guard let text = value.text else { throw Skip(reason: "the example of path parameter '\(parameter.wireName)' is not a single value") }
                pathValues[parameter.wireName] = text
            case .query:
                let items = if case .array(let elements) = value { elements } else { [value] }
                for item in items {
                    guard let text = item.text else { throw Skip(reason: "the example of query parameter '\(parameter.wireName)' is not a value or a list of values") }
                    query += (query.isEmpty ? "?" : "&") + PercentEncoding.component(parameter.wireName) + "=" + PercentEncoding.component(text)
                }
            case .header, .body:
                continue
            }
        }
        guard let base = BaseURL(base) else { throw Skip(reason: "'\(base)' is not a base URL") }
        var path = base.path
        do throws(PathTemplate.FillingError) {
            try PathTemplate(rest.path).append(to: &path) { pathValues[$0] }
        } catch {
            throw Skip(reason: "the example of a path parameter is missing or empty (\(error))")
        }
        let address = base.scheme + "://" + base.authority + (path.isEmpty ? "/" : path) + query
        guard let url = URL(string: address) else { throw Skip(reason: "'\(address)' is not a URL") }
        var request = URLRequest(url: url)
        request.httpMethod = rest.method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    private static func rpcRequest(_ api: APIDescription, _ rpc: RPCDescription, base: String, values: [String: JSONValue]) throws(Skip) -> URLRequest {
        let address = BaseURL.joined(base, rpc.path)
        guard let url = URL(string: address) else { throw Skip(reason: "'\(address)' is not a URL") }
        let params: String
        switch rpc.structure {
        case .byName:
            let members = api.parameters.compactMap { parameter in
                values[parameter.swiftName].map { JSONValue.quoted(parameter.wireName) + ":" + $0.json }
            }
            params = "{" + members.joined(separator: ",") + "}"
        case .byPosition:
            params = "[" + api.parameters.map { values[$0.swiftName]?.json ?? "null" }.joined(separator: ",") + "]"
        }
        let extra = rpc.envelope.map { (name: $0.name, value: JSONValue.parse(Data($0.json.utf8)) ?? .null) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = JSONRPCEnvelope.request(method: rpc.method, params: Data(params.utf8), id: 1, extra: extra)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }
}
