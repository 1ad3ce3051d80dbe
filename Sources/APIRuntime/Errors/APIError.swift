import Foundation

/// The one error every API call throws. It names the API and says what failed.
public struct APIError: Error, CustomStringConvertible {
    /// The name of the API as declared in its manifest (`GetUser`).
    public var api: String
    /// What failed, with what the server or the library said.
    public var reason: Reason
    /// The error underneath, when another library raised it (a connection error, a `DecodingError`).
    public var underlying: (any Error)?
    /// The reply's body decoded into the type the manifest declares for its status
    /// (`responses: { 422: ValidationErrors }`); nil for undeclared statuses and other failures.
    public var serverError: (any Error)?
    /// Whether the call failed before it was sent, for want of a credential that could not be
    /// had (a token, offline): a stored reply may stand in for it, as for a network failure.
    var lacksCredential = false

    /// What failed.
    public enum Reason: Sendable, Equatable {
        /// The request never got an answer: connection refused, DNS, a reset connection.
        case transport(message: String)
        /// The TLS connection failed: the server was not trusted or matched no pin, the server
        /// refused the client's certificate, or the host's `TLSSettings` cannot be used.
        case tls(TLSFailure)
        /// The server answered with a status outside 200...299; the body is kept for diagnosis.
        case httpStatus(code: Int, body: Data)
        /// The reply did not decode into the API's response type.
        case decoding(codingPath: String, message: String)
        /// The parameters could not be turned into a request (a value JSON cannot carry, a bad URL).
        case invalidRequest(message: String)
        /// The reply broke the API's protocol: a malformed envelope, a missing field.
        case invalidResponse(message: String)
        /// The server's protocol reported an error in its own envelope (an RPC error object).
        case rpcError(code: Int, message: String, data: Data?)
        /// A gRPC server ended the call with a status other than OK.
        case grpcStatus(code: GRPCStatusCode, message: String)
        /// An identical call was already in flight and the API's frequency policy is `reject`.
        case duplicateRequest(message: String)
        /// The call was cancelled: its task, `cancel()`, or the manager shutting down.
        case cancelled
        /// No complete answer within the API's timeout.
        case timeout(Duration)
        /// The server refused the credentials, and refreshing them did not help.
        case unauthorized(message: String)
        /// The API's rate limit was reached and its behaviour is `fail`.
        case rateLimited(message: String)
        /// The call asked for the cache only (`CachePolicy.cacheOnly`), and nothing is stored for it.
        case notCached
        /// The manager answers from stubs (a test stubbed an API on it), and none answers this
        /// call; `request` is what was sent (`GET https://api.example.com/users/7`).
        case notStubbed(request: String)
    }

    /// An error of the API named `api`; interceptors and transports of your own make them.
    public init(api: String, reason: Reason, underlying: (any Error)? = nil, serverError: (any Error)? = nil) {
        self.api = api
        self.reason = reason
        self.underlying = underlying
        self.serverError = serverError
    }

    /// `GetUser: HTTP 404 (27-byte body)`: what failed, never what the server wrote (a body, an
    /// RPC error's or a gRPC status's message, a value that did not decode), which may hold
    /// personal data or secrets and would reach every log that prints the error.
    public var description: String { "\(api): \(reason)" }

    /// `description` with what the server wrote quoted, for a developer reading one error: the
    /// first 200 bytes of an error reply's body (`GetUser: HTTP 404: {"error": "no such user"}`),
    /// or the message of an RPC error or a gRPC status.
    public var detailedDescription: String {
        switch reason {
        case .httpStatus(let code, let body) where !body.isEmpty:
            let limit = 200
            let text = String(decoding: body.prefix(limit), as: UTF8.self)
            return "\(api): HTTP \(code): " + text + (body.count > limit ? "…" : "")
        case .rpcError(_, let message, _) where !message.isEmpty, .grpcStatus(_, let message) where !message.isEmpty:
            return "\(description): \(message)"
        default:
            return description
        }
    }
}

extension APIError.Reason: CustomStringConvertible {
    /// The reason in words, without what the server wrote: `HTTP 404 (27-byte body)`.
    public var description: String {
        switch self {
        case .transport(let message):
            return "transport error: \(message)"
        case .tls(let failure):
            return "TLS error: \(failure)"
        case .httpStatus(let code, let body):
            return body.isEmpty ? "HTTP \(code)" : "HTTP \(code) (\(body.count)-byte body)"
        case .decoding(let codingPath, let message):
            return "cannot decode the response at '\(codingPath.isEmpty ? "<root>" : codingPath)': \(message)"
        case .invalidRequest(let message):
            return "invalid request: \(message)"
        case .invalidResponse(let message):
            return "invalid response: \(message)"
        case .rpcError(let code, _, _):
            return "RPC error \(JSONRPCErrorCode(rawValue: code))"
        case .grpcStatus(let code, _):
            return "gRPC status \(code) (\(code.rawValue))"
        case .duplicateRequest(let message):
            return "duplicate request: \(message)"
        case .cancelled:
            return "cancelled"
        case .timeout(let duration):
            return "timed out after \(duration)"
        case .unauthorized(let message):
            return "unauthorized: \(message)"
        case .rateLimited(let message):
            return "rate limited: \(message)"
        case .notCached:
            return "not in the cache, and the call asked for the cache only"
        case .notStubbed(let request):
            return "no stub answers \(request)"
        }
    }
}

extension APIError {
    /// `error` as a call's error: itself when it is an `APIError`, `.cancelled` when the work was
    /// cancelled, else what `otherwise` makes of it.
    package static func wrapping(_ error: any Error, api: String, otherwise: (any Error) -> APIError) -> APIError {
        if let error = error as? APIError { return error }
        if error is CancellationError || Task.isCancelled { return APIError(api: api, reason: .cancelled, underlying: error) }
        return otherwise(error)
    }

    /// Describes a `DecodingError` by its coding path, the part a reader needs to find the bad field.
    package static func decoding(_ error: any Error, api: String) -> APIError {
        guard let decodingError = error as? DecodingError else {
            return APIError(api: api, reason: .decoding(codingPath: "", message: "\(error)"), underlying: error)
        }
        let (context, summary): (DecodingError.Context?, String) = switch decodingError {
        case .typeMismatch(let type, let context): (context, "expected \(type)")
        case .valueNotFound(let type, let context): (context, "expected \(type), found null")
        case .keyNotFound(let key, let context): (context, "missing key '\(key.stringValue)'")
        case .dataCorrupted(let context): (context, "data corrupted")
        @unknown default: (nil, "\(decodingError)")
        }
        var path = context?.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue } ?? []
        if case .keyNotFound(let key, _) = decodingError { path.append(key.stringValue) }
        let joined = path.reduce(into: "") { result, part in
            result += part.hasPrefix("[") || result.isEmpty ? part : "." + part
        }
        let detail = context.map { ": \($0.debugDescription)" } ?? ""
        return APIError(api: api, reason: .decoding(codingPath: joined, message: summary + detail), underlying: error)
    }
}

extension Result where Failure == APIError {
    /// `Result(catching:)` for async work whose only error is an `APIError`: the outcome of a call
    /// handed across a task-local scope or a task boundary without losing the error's type.
    init(catching body: () async throws(APIError) -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
