import APIGenKit
import APIManifest
import APIWireFormat
import Foundation

/// What the mock server answers, from a workspace's descriptions: each REST API at its method and
/// path (its base URL's path, then its own), each JSON-RPC API at its endpoint by method name,
/// with the manifest's `sample:`.
public struct MockRoutes: Sendable {
    /// A REST API's route.
    struct RESTRoute: Sendable {
        let api: String
        let declaredAt: SourceLocation
        let method: String
        /// `/v1/users/{id}`, as the server sees it: the base URL's path, then the API's, read as
        /// the runtime reads it.
        let template: PathTemplate
        let sample: SampleDescription?
        let answersNoContent: Bool

        /// A request path it takes: its template, each placeholder filled with `x`.
        var sampleRequest: String {
            template.parts.map { part in
                switch part {
                case .text(let text): text
                case .placeholder: "x"
                }
            }.joined()
        }

        /// Whether `path`, as a request sends it (percent-encoded), is this route's.
        func matches(_ path: String) -> Bool {
            template.match(path[...])?.prefix.isEmpty == true
        }
    }

    /// A JSON-RPC method at its endpoint.
    struct RPCMethod: Sendable {
        let api: String
        let declaredAt: SourceLocation
        let sample: SampleDescription?
    }

    let rest: [RESTRoute]
    /// JSON-RPC methods by endpoint path, then by remote method name.
    let rpc: [String: [String: RPCMethod]]
    /// The APIs no route answers, each with why: gRPC, and RPC protocols of the app's own.
    public let unserved: [String]
    /// The base URLs the workspace's APIs name, for an app to point at the server.
    public let baseURLs: [String]
    /// APIs no request reaches, as another answers every request they would take.
    public private(set) var collisions: [RouteCollision]

    /// The routes of `workspace`'s REST and JSON-RPC APIs; its gRPC and custom RPC APIs are not served.
    public init(_ workspace: WorkspaceDescription) {
        var rest: [RESTRoute] = []
        var rpc: [String: [String: RPCMethod]] = [:]
        var baseURLs: Set<String> = []
        var collisions: [RouteCollision] = []
        var unserved: [String] = []
        for api in workspace.apis {
            let base = api.baseURL ?? workspace.defaults.baseURL ?? ""
            switch api.shape {
            case .rest(let description):
                if !base.isEmpty { baseURLs.insert(base) }
                let template = PathTemplate(Self.nonEmpty(BaseURL.joined(BaseURL.path(of: base), description.path)))
                rest.append(RESTRoute(
                    api: api.manifestName, declaredAt: api.declaredAt, method: description.method.rawValue, template: template,
                    sample: api.sample, answersNoContent: api.response.decoding == .noContent
                ))
            case .jsonRPC(let description):
                // An endpoint given as an absolute URL is the API's base URL, its path empty.
                if !base.isEmpty { baseURLs.insert(base) }
                // Two APIs may call one method (by position and by name): the one with a sample answers.
                let path = Self.nonEmpty(BaseURL.path(of: BaseURL.joined(base, description.path)))
                let method = RPCMethod(api: api.manifestName, declaredAt: api.declaredAt, sample: api.sample)
                if let answering = rpc[path]?[description.method], answering.sample != nil {
                    // Two samples of one method: the second is never served.
                    if api.sample != nil {
                        collisions.append(RouteCollision(
                            api: method.api, declaredAt: method.declaredAt, answeringAPI: answering.api, answeringDeclaredAt: answering.declaredAt,
                            route: "POST \(path) (JSON-RPC \(description.method))", request: "JSON-RPC \(description.method)"
                        ))
                    }
                } else {
                    rpc[path, default: [:]][description.method] = method
                }
            case .customRPC(let description):
                // Its envelope is the app's own code, which the server cannot run.
                unserved.append("\(api.manifestName) (\(description.delegateType): an RPC protocol of the app's own)")
            case .grpc:
                unserved.append("\(api.manifestName) (gRPC)")
            }
        }
        // A fixed segment is more specific than a placeholder (`/users/count` before
        // `/users/{id}`), and of two APIs at one route, the one with a sample answers.
        self.rest = rest.enumerated().sorted { a, b in
            let (left, right) = (a.element.template.placeholders.count, b.element.template.placeholders.count)
            if left != right { return left < right }
            if (a.element.sample == nil) != (b.element.sample == nil) { return a.element.sample != nil }
            return a.offset < b.offset
        }.map(\.element)
        self.rpc = rpc
        self.unserved = unserved
        self.baseURLs = baseURLs.sorted()
        self.collisions = []
        // A route whose own request, its placeholders filled, something else answers first:
        // another API at the same route, one that takes more (`/files/{name}` before
        // `/files/{name}.json`), or a JSON-RPC endpoint at its path.
        for route in self.rest {
            let path = route.sampleRequest
            let served = "\(route.method) \(route.template.text)"
            if route.method == "POST", let methods = rpcMethods(at: path), let method = methods.values.min(by: { $0.api < $1.api }) {
                collisions.append(RouteCollision(
                    api: route.api, declaredAt: route.declaredAt, answeringAPI: method.api, answeringDeclaredAt: method.declaredAt,
                    route: served, request: "POST \(path)"
                ))
            } else if let first = self.route(method: route.method, path: path), first.api != route.api {
                collisions.append(RouteCollision(
                    api: route.api, declaredAt: route.declaredAt, answeringAPI: first.api, answeringDeclaredAt: first.declaredAt,
                    route: served, request: "\(route.method) \(path)"
                ))
            }
        }
        self.collisions = collisions.sorted { $0.declaredAt < $1.declaredAt }
    }

    /// The routes, one line each: `GET /v1/users/{id} → GetUser`.
    public var summary: [String] {
        let restLines = rest.map { "\($0.method) \($0.template.text) → \($0.api)\($0.sample == nil ? " (no sample)" : "")" }
        let rpcLines = rpc.sorted { $0.key < $1.key }.flatMap { path, methods in
            methods.sorted { $0.key < $1.key }.map { name, method in
                "POST \(path) (JSON-RPC \(name)) → \(method.api)\(method.sample == nil ? " (no sample)" : "")"
            }
        }
        return restLines + rpcLines
    }

    func route(method: String, path: String) -> RESTRoute? {
        rest.first { $0.method == method && $0.matches(path) }
    }

    func rpcMethods(at path: String) -> [String: RPCMethod]? {
        rpc[path] ?? rpc[path.hasSuffix("/") ? String(path.dropLast()) : path + "/"]
    }

    // MARK: Paths

    /// The server's root for an empty path.
    static func nonEmpty(_ path: String) -> String {
        path.isEmpty ? "/" : path
    }
}

/// Two APIs at one route: requests that `api` declares are answered by `answeringAPI`.
public struct RouteCollision: Sendable, Equatable {
    /// The API the requests do not reach, and where its manifest declares it.
    public let api: String
    public let declaredAt: SourceLocation
    /// The API that answers them instead, and where its manifest declares it.
    public let answeringAPI: String
    public let answeringDeclaredAt: SourceLocation
    /// `GET /v1/users/{id}`, as the server sees it.
    public let route: String
    /// A request that shows it: `GET /v1/files/x.json`.
    public let request: String

    /// `apis/users.yaml:12:3: warning: …`, as compilers write.
    public var diagnostic: String {
        "\(declaredAt): warning: '\(api)' is served at \(route), but '\(answeringAPI)' (\(answeringDeclaredAt)) answers first: \(request) reaches '\(answeringAPI)', not '\(api)'"
    }
}
