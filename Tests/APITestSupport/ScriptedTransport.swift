import APIRuntime
import Foundation
import HTTPTypes

/// An HTTP transport that answers from a closure instead of a socket: for tests of the manager's
/// own logic (deadlines, rate limits, retries) on a manual clock. Wire behaviour is tested on
/// loopback servers.
public struct ScriptedTransport: HTTPTransport {
    public typealias Respond = @Sendable (HTTPRequest) async throws -> (HTTPResponse, Data)

    public let respond: Respond

    public init(respond: @escaping Respond) {
        self.respond = respond
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody) {
        let (head, bytes) = try await respond(request)
        return (head, HTTPBody(bytes))
    }

    public func shutdown() async {}
}

extension TransportFactory {
    /// Sessions whose transport answers every request with `respond`.
    public static func scripted(_ respond: @escaping ScriptedTransport.Respond) -> TransportFactory {
        .http(name: "scripted") { _, _ in ScriptedTransport(respond: respond) }
    }
}

/// Runs `body` with a manager on `clock` whose HTTP calls `respond` answers, shut down afterwards.
public func withScriptedManager<T>(
    clock: ManualClock,
    configure: (inout APIManager.Configuration) -> Void = { _ in },
    respond: @escaping ScriptedTransport.Respond,
    body: (APIManager) async throws -> T
) async throws -> T {
    var configuration = APIManager.Configuration()
    configuration.clock = clock
    configuration.httpTransport = .scripted(respond)
    configure(&configuration)
    return try await withManager(configuration, body: body)
}

extension HTTPResponse {
    /// A reply head with `status` and, when given, a `Retry-After`.
    public static func status(_ status: HTTPResponse.Status, retryAfter: Int? = nil) -> HTTPResponse {
        var fields = HTTPFields()
        if let retryAfter { fields[.retryAfter] = "\(retryAfter)" }
        return HTTPResponse(status: status, headerFields: fields)
    }
}
