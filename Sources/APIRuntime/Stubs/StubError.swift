import APIWireFormat
import Foundation
import HTTPTypes

/// What a typed stub throws to answer a call with a failure, as a server or the network would:
/// an error status, a JSON-RPC error object, a gRPC status, or a connection that failed.
///
/// ```swift
/// manager.stub(GetUserAPI.self) { api in
///     guard api.id == 7 else { throw StubError.status(404, json: ["message": "no such user"]) }
///     return User(id: 7, name: "Ada")
/// }
/// ```
///
/// The failure travels the call's whole path: the interceptors see the reply, the retry policy
/// judges it, and the API's declared error types decode its body, as they would a server's.
/// A stub that throws an `APIError` fails the call with it; any other error is a failed
/// connection.
public struct StubError: Error, Sendable {
    enum Failure: Sendable {
        case reply(APIResponse)
        case rpcError(code: Int, message: String, data: JSONValue?)
        case connection(message: String)
    }

    let failure: Failure

    /// An HTTP reply with status `code` and `body`: how a REST server refuses a call.
    public static func status(_ code: Int, body: Data = Data(), headers: [(name: String, value: String)] = []) -> StubError {
        StubError(failure: .reply(StubResponse(status: code, headers: headers, body: body).response()))
    }

    /// An HTTP reply with status `code` and `json` as its body, encoded as the API's JSON is:
    /// the API's declared error type for that status reads it.
    public static func status(_ code: Int, json: some Encodable) -> StubError {
        do {
            return status(code, body: try JSONCoding.encoder.encode(json), headers: [(name: "Content-Type", value: "application/json")])
        } catch {
            return StubError(failure: .connection(message: "the stub's error body does not encode: \(error)"))
        }
    }

    /// A JSON-RPC error object, in a reply with the call's id: for JSON-RPC APIs.
    public static func rpcError(code: Int, message: String, data: JSONValue? = nil) -> StubError {
        StubError(failure: .rpcError(code: code, message: message, data: data))
    }

    /// A gRPC call ended with status `code` and `message`: for gRPC APIs.
    public static func grpcStatus(_ code: GRPCStatusCode, message: String = "") -> StubError {
        StubError(failure: .reply(APIResponse(status: .grpc(code, message: message))))
    }

    /// A connection that failed before any reply (`APIError.Reason.transport`), which the retry
    /// policy may send again.
    public static func connectionFailed(_ message: String = "the connection failed") -> StubError {
        StubError(failure: .connection(message: message))
    }
}
