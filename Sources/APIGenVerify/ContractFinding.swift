import APIGenKit
import APIManifest

/// A way a server's reply differs from what the manifest declares, at the manifest line it
/// concerns.
public struct ContractFinding: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case typeMismatch, missingField, extraField, unknownEnumValue
        /// A status the API does not declare: not 2xx, and under no `responses:`.
        case undeclaredStatus
        /// A body the API decodes as JSON that is not JSON.
        case notJSON
        /// A JSON-RPC error object, or a gRPC status other than OK that the server sent.
        case rpcError
        /// A reply the generated client refuses: not a JSON-RPC response to the call, larger
        /// than the manager reads, a redirect it does not follow (https to http, too many).
        case invalidReply
        /// No reply: the server could not be reached or did not answer in time, or the check
        /// did not make the call (a header it would send in clear text).
        case callFailed
    }

    /// The API's manifest name.
    public var api: String
    public var kind: Kind
    /// Where in the reply's JSON (`$.items[0].role`); nil for the reply as a whole.
    public var path: String?
    public var message: String
    /// Whether the generated client fails on this reply because of it.
    public var breaksDecoding: Bool
    public var file: String
    public var line: Int
    public var column: Int

    init(api: APIDescription, kind: Kind, path: String? = nil, message: String, breaksDecoding: Bool = true, at location: SourceLocation? = nil) {
        let location = location ?? api.declaredAt
        self.api = api.manifestName
        self.kind = kind
        self.path = path
        self.message = message
        self.breaksDecoding = breaksDecoding
        self.file = location.file
        self.line = location.line
        self.column = location.column
    }

    init(api: APIDescription, _ problem: ConformanceProblem) {
        self.init(
            api: api, kind: Kind(problem.kind), path: problem.path, message: problem.message,
            breaksDecoding: problem.breaksDecoding, at: problem.location
        )
    }

    /// `file:line:col: error: GetUser: $.role: ...`, as compilers write.
    public var diagnostic: String {
        let effect = breaksDecoding ? "" : " (the client still decodes the reply)"
        return "\(file):\(line):\(column): error: \(api): \(path.map { "\($0): " } ?? "")\(message)\(effect)"
    }
}

extension ContractFinding.Kind {
    init(_ kind: ConformanceProblem.Kind) {
        switch kind {
        case .typeMismatch: self = .typeMismatch
        case .missingField: self = .missingField
        case .extraField: self = .extraField
        case .unknownEnumValue: self = .unknownEnumValue
        }
    }
}
