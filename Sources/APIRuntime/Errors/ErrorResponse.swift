import Foundation

/// An error status's body as the manifest declares it (`responses: { 422: ValidationErrors }`):
/// a reply with that status fails with `.httpStatus`, and its body, decoded, is the error's
/// `serverError`.
///
/// ```swift
/// } catch {
///     switch error.serverError {
///     case let invalid as ValidationErrors: show(invalid.errors)
///     case is NotFound: showMissing()
///     default: show(error)
///     }
/// }
/// ```
public struct ErrorResponse: Sendable {
    /// The status; nil for every error status that has no body of its own (`default:`).
    public let status: Int?
    private let decode: @Sendable (Data) throws -> any Error

    /// `Body` for replies with `status`.
    public init<Body: Decodable & Error>(status: Int, _ body: Body.Type) {
        self.status = status
        self.decode = { try JSONCoding.decoder.decode(Body.self, from: $0) }
    }

    /// `Body` for error replies whose status has no body of its own.
    public init<Body: Decodable & Error>(default body: Body.Type) {
        self.status = nil
        self.decode = { try JSONCoding.decoder.decode(Body.self, from: $0) }
    }

    /// The body of an error reply with `status`, decoded by the first of `responses` that
    /// declares it, else by the first default; nil when none does or it does not decode (the error
    /// stays `.httpStatus` with the bytes).
    static func decode(_ body: Data, status: Int, from responses: [ErrorResponse]...) -> (any Error)? {
        for declared in responses {
            let match = declared.first { $0.status == status } ?? declared.first { $0.status == nil }
            if let match { return try? match.decode(body) }
        }
        return nil
    }
}
