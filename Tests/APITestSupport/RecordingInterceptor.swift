import APIRuntime
import HTTPTypes
import NIOConcurrencyHelpers

/// Records what it sees and stamps a header: proof that an interceptor runs, in order, for calls
/// of every kind.
public struct RecordingInterceptor: APIInterceptor {
    public let name: String
    public let seen: NIOLockedValueBox<[String]>

    public init(name: String, seen: NIOLockedValueBox<[String]>) {
        self.name = name
        self.seen = seen
    }

    public func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: (APIRequest) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        seen.withLockedValue { $0.append("\(name)>\(context.kind):\(request.api)#\(context.attempt)") }
        var request = request
        request.headerFields[HTTPField.Name("X-\(name)")!] = "yes"
        let response = try await next(request)
        seen.withLockedValue { $0.append("\(name)<\(response.statusSummary)") }
        return response
    }
}
