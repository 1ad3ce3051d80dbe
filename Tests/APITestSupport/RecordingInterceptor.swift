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

    public func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        request.headerFields[HTTPField.Name("X-\(name)")!] = "yes"
        return request
    }

    public func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        seen.withLockedValue { $0.append("\(name)>\(context.kind):\(request.api)#\(context.attempt)") }
        let response = try await next()
        seen.withLockedValue { $0.append("\(name)<\(response.statusSummary)") }
        return response
    }
}
