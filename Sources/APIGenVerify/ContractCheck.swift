import APIGenKit
import APIManifest
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `apigen verify`: calls every API of a workspace that is safe to call, with its parameters'
/// examples, and checks each reply against the manifest.
public struct ContractCheck: Sendable {
    public struct Options: Sendable {
        /// The server checked, in place of the workspace's base URLs; nil keeps them.
        public var baseURL: String?
        /// Servers by the base URL (or gRPC target, `grpc://host:port`) they stand in for, as
        /// `APIManager.Configuration.baseURLOverrides` maps them; they win over `baseURL`.
        public var baseURLOverrides: [String: String] = [:]
        /// Headers added to every call (`Authorization: Bearer ...`).
        public var headers: [HeaderDescription] = []
        /// The gRPC server checked (`grpc://host:port`, `grpcs://` for TLS), in place of the
        /// targets of the workspace's `grpc:` blocks; nil keeps them.
        public var grpcURL: String?
        /// Seconds each call may take.
        public var timeout: Double = 30
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
    }

    public let workspace: WorkspaceDescription
    public let options: Options

    public init(workspace: WorkspaceDescription, options: Options) {
        self.workspace = workspace
        self.options = options
    }

    /// The calls the check makes, in the manifests' order, and the APIs it leaves uncalled.
    public var calls: [ContractCall] {
        workspace.apis.filter { options.apis?.contains($0.manifestName) ?? true }.map { ContractCall($0, workspace: workspace, options: options) }
    }

    /// Calls the APIs one after another; `progress` hears of each as it ends.
    public func run(progress: @Sendable (ContractReport.Entry) -> Void = { _ in }) async -> ContractReport {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let check = ReplyCheck(workspace: workspace)
        var report = ContractReport(baseURL: options.baseURL)
        for call in calls {
            var entry = ContractReport.Entry(api: call.api.manifestName, skipped: call.skipReason)
            if let request = call.request {
                entry.request = request.description
                do {
                    switch request {
                    case .http(let request):
                        let (body, response) = try await session.data(for: request)
                        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                        entry.status = status
                        entry.findings = check.findings(for: call.api, status: status, body: body)
                    case .grpc(let grpcCall):
                        guard #available(gRPCSwift 2.0, *) else { throw GRPCUnavailable() }
                        let reply = try await grpcCall.send()
                        entry.grpcStatus = reply.code
                        entry.findings = check.findings(for: call.api, grpcReply: reply)
                    }
                } catch {
                    entry.findings = [ContractFinding(api: call.api, kind: .callFailed, message: "no reply from \(request.description): \(error)")]
                }
            }
            progress(entry)
            report.entries.append(entry)
        }
        return report
    }
}

/// gRPC calls need grpc-swift 2, which on Apple platforms needs macOS 15 or later.
private struct GRPCUnavailable: Error, CustomStringConvertible {
    var description: String { "gRPC calls need macOS 15 or later" }
}
