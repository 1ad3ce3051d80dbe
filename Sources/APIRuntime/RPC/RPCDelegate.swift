import Foundation

/// Decides how a call is wrapped on the wire. An API whose `rpcDelegate` is nil is plain REST.
///
/// The base API encodes its parameters first (URL, query, headers, and `body` parameters as one JSON
/// object); the delegate then wraps that request into its protocol's envelope, and turns the
/// server's reply back into the bytes of the result, or into an error.
public protocol RPCDelegate: Sendable {
    /// Rewrites the encoded request into this protocol's envelope (URL, headers, body).
    func wrap(_ request: inout APIRequest, for definition: APIDefinition) throws(APIError)

    /// Returns the bytes the API's response decoder reads, or throws an `APIError` naming the API.
    func unwrap(_ response: APIResponse, for definition: APIDefinition) throws(APIError) -> Data
}

/// Plain REST, what a nil `rpcDelegate` means: the body as it is, a 2xx status or an error.
enum RESTProtocol {
    static func unwrap(_ response: APIResponse, for definition: APIDefinition) throws(APIError) -> Data {
        guard response.status.kind == .successful else {
            throw APIError(api: definition.name, reason: .httpStatus(code: response.status.code, body: response.body))
        }
        return response.body
    }
}
