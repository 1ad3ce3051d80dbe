import APIRuntime
import NIOConcurrencyHelpers

/// An interceptor that writes down what the cache did for each call (`hit`, `miss`, …), and
/// attaches the credential `token` holds, as an authentication interceptor does.
struct CacheRecorder: APIInterceptor {
    let events = NIOLockedValueBox<[String]>([])
    /// The token calls carry; nil attaches none.
    let token = NIOLockedValueBox<String?>(nil)

    var seen: [String] { events.withLockedValue { $0 } }

    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        if let token = token.withLockedValue({ $0 }) { request.headerFields[.authorization] = "Bearer " + token }
        return request
    }

    func observe(_ event: CacheEvent, context: APICallContext) {
        events.withLockedValue { $0.append(event.name) }
    }
}
