import APIGenKit
import APIManifest
import APIRuntime
import Foundation
import HTTPTypes

/// `apigen verify`: calls every API of a workspace that is safe to call, with its parameters'
/// examples, and checks each reply against the manifest.
///
/// Each call is the generated client's: the runtime builds it from the definition and parameters
/// the generated API would make, and a bare manager sends it (no interceptors, retries, cache or
/// cookies) over the runtime's default transports, gRPC's included. So the request that reaches
/// the server is the app's, and the redirect policy, the bound on a reply's size and one
/// deadline per call apply as they do in the app.
public struct ContractCheck: Sendable {
    public struct Options: Sendable {
        /// The server checked, in place of the workspace's base URLs; nil keeps them.
        public var baseURL: String?
        /// Servers by the base URL (or gRPC target, `grpc://host:port`) they stand in for, as
        /// `APIManager.Configuration.baseURLOverrides` maps them; they win over `baseURL`.
        public var baseURLOverrides: [String: String] = [:]
        /// Headers sent with the calls that carry the app's credentials (`Authorization: Bearer
        /// ...`): those to the origin of the workspace's base URL and those of APIs whose manifest
        /// says `authenticated: true`; never a third party's, never in clear text to another machine.
        public var headers: [HeaderDescription] = []
        /// The gRPC server checked (`grpc://host:port`, `grpcs://` for TLS), in place of the
        /// targets of the workspace's `grpc:` blocks; nil keeps them.
        public var grpcURL: String?
        /// Seconds each call may take, from its start to the last byte of its reply.
        public var timeout: Double = 30
        /// How long a call may take at most: a timeout past it (`1e300`, infinity) waits this long.
        public static let longestTimeout: Double = 24 * 3600
        /// The APIs checked, by manifest name; nil checks every one.
        public var apis: Set<String>?

        public init(
            baseURL: String? = nil, baseURLOverrides: [String: String] = [:], grpcURL: String? = nil, headers: [HeaderDescription] = [],
            timeout: Double = 30, apis: Set<String>? = nil
        ) {
            self.baseURL = baseURL
            self.baseURLOverrides = baseURLOverrides
            self.grpcURL = grpcURL
            self.apis = apis
            self.headers = headers
            self.timeout = timeout
        }

        /// `timeout` as the runtime's duration, within zero and `longestTimeout`; 30 seconds when
        /// it is not a number.
        var callTimeout: Duration {
            guard !timeout.isNaN else { return .seconds(30) }
            // A timeout under a millisecond is one millisecond, not none.
            return .milliseconds(Swift.max(1, Int64((Swift.min(Swift.max(timeout, 0), Self.longestTimeout) * 1000).rounded(.up))))
        }
    }

    public let workspace: WorkspaceDescription
    public let options: Options

    /// Whether `name` can name a header field: the check of `--header`, before any call.
    public static func isHeaderName(_ name: String) -> Bool {
        HTTPField.Name(name) != nil
    }
    /// The manager's transports: the defaults unless a test gives its own.
    let configure: @Sendable (inout APIManager.Configuration) -> Void

    public init(workspace: WorkspaceDescription, options: Options) {
        self.init(workspace: workspace, options: options) { _ in }
    }

    /// A check whose manager `configure` adjusts after it is made bare: a test's TLS roots or
    /// transport.
    package init(workspace: WorkspaceDescription, options: Options, configure: @escaping @Sendable (inout APIManager.Configuration) -> Void) {
        self.workspace = workspace
        self.options = options
        self.configure = configure
    }

    /// The calls the check makes, in the manifests' order, and the APIs it leaves uncalled.
    public var calls: [ContractCall] {
        workspace.apis.filter { options.apis?.contains($0.manifestName) ?? true }.map { ContractCall($0, workspace: workspace, options: options) }
    }

    /// A manager that sends each call once, as it is: no interceptors, retries, rate limits,
    /// duplicate policy, cache or cookies.
    func bareManager() -> APIManager {
        var configuration = APIManager.Configuration()
        configuration.cookies = .none
        configuration.retry = .none
        configuration.frequency = .allow
        configuration.timeout = options.callTimeout
        configure(&configuration)
        return APIManager(configuration: configuration)
    }

    /// Calls the APIs one after another; `progress` hears of each as it ends.
    public func run(progress: @Sendable (ContractReport.Entry) -> Void = { _ in }) async -> ContractReport {
        let manager = bareManager()
        let check = ReplyCheck(workspace: workspace)
        var report = ContractReport(baseURL: options.baseURL)
        for call in calls {
            var entry = ContractReport.Entry(api: call.api.manifestName, skipped: call.skipReason)
            entry.request = call.request
            if let refusal = call.refusal {
                entry.findings = [ContractFinding(api: call.api, kind: .callFailed, message: refusal)]
            } else if let definition = call.definition {
                let api = BaseAPI<Reply>(definition: definition, response: .reply { response, _ in Reply(response) }, request: call.parameters)
                do throws(APIError) {
                    let reply = try await api.using(manager).start(options: call.callOptions)
                    entry.status = reply.status
                    if call.api.shape.grpc != nil { entry.grpcStatus = GRPCStatusCode.ok.description }
                    entry.findings = check.findings(for: call.api, reply: reply.body)
                } catch {
                    if case .httpStatus(let code, _) = error.reason { entry.status = code }
                    if case .grpcStatus(let code, _) = error.reason { entry.grpcStatus = code.description }
                    entry.findings = check.findings(for: call.api, error: error, request: call.request ?? call.api.manifestName)
                }
            }
            progress(entry)
            report.entries.append(entry)
        }
        await manager.shutdown()
        return report
    }
}

/// What a call answered, undecoded: its HTTP status (none for gRPC), and the body the API's
/// protocol unwrapped (a JSON-RPC result, a gRPC message).
struct Reply: Sendable {
    var status: Int?
    var body: Data

    init(_ response: APIResponse) {
        status = response.httpStatus?.code
        body = response.body
    }
}
