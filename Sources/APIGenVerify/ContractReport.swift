import Foundation

/// What a contract check found: each API, called or not, with its findings.
public struct ContractReport: Sendable, Codable {
    public struct Entry: Sendable, Codable {
        /// The API's manifest name.
        public var api: String
        /// Why it was not called; nil when it was.
        public var skipped: String?
        /// `GET http://…/users/7`.
        public var request: String?
        /// The reply's HTTP status, when the call succeeded or its status failed it; nil
        /// otherwise (a JSON-RPC error object, a reply refused).
        public var status: Int?
        /// A gRPC call's status, as the specification names it (`OK`, `NOT_FOUND`,
        /// `UNAVAILABLE`); nil without one.
        public var grpcStatus: String?
        public var findings: [ContractFinding] = []
    }

    /// The server checked; nil when each API's own base URL was.
    public var baseURL: String?
    public var entries: [Entry] = []

    public var findings: [ContractFinding] { entries.flatMap(\.findings) }
    public var called: Int { entries.count { $0.skipped == nil } }
    public var skipped: Int { entries.count { $0.skipped != nil } }

    /// One line for the whole run.
    public var summary: String {
        let findings = findings
        let breaking = findings.count { $0.breaksDecoding }
        let counts = "\(called) API\(called == 1 ? "" : "s") called, \(skipped) not called"
        guard !findings.isEmpty else { return "apigen verify: \(counts); every reply matches the manifests" }
        return "apigen verify: \(counts); \(findings.count) mismatch\(findings.count == 1 ? "" : "es"), \(breaking) of them failing the generated client"
    }

    /// The report as JSON, for CI: `baseURL`, `called`, `skipped`, `findings` and `entries`.
    public var json: Data {
        struct Document: Encodable {
            var baseURL: String?
            var called: Int
            var skipped: Int
            var findings: [ContractFinding]
            var entries: [Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(baseURL: baseURL, called: called, skipped: skipped, findings: findings, entries: entries)
        return (try? encoder.encode(document)) ?? Data()
    }
}
