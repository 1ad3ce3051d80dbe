import APIRuntime
import APITestSupport
import Foundation
import Hummingbird
import ShadowingClient
import Testing
import WireTestSupport

/// A workspace whose types are named as the runtime's (`RateLimit`, `RetryPolicy`, `BaseAPI`,
/// ...): its APIs keep the runtime's policies and send and decode their own models.
@Suite("Types named as the runtime's")
struct ShadowingClientTests {
    @Test("An API's own RateLimit model decodes, and its rate limit and retry policy are the runtime's")
    func rateLimitModel() async throws {
        #expect(GetRateLimitAPI.definition.rateLimit == APIRuntime.RateLimit(calls: 10, per: .seconds(60)))
        #expect(GetRateLimitAPI.definition.retry == APIRuntime.RetryPolicy(maxAttempts: 3, retryableStatuses: [503]))
        try await withServer({ _ in .json(#"{"limit": 60, "remaining": 59, "reset_at": "2024-01-01T00:00:00Z"}"#) }) { server, manager in
            let api = GetRateLimitAPI().using(manager)
            api.options.baseURL = server.baseURL
            let limit = try await api.start()
            #expect(limit == ShadowingClient.RateLimit(limit: 60, remaining: 59, resetsAt: Date(timeIntervalSince1970: 1_704_067_200)))
        }
    }

    @Test("Parameters named as BaseAPI's members keep their wire names; only its public ones rename the property")
    func memberNamedParameters() async throws {
        try await withServer({ _ in Response(status: .noContent) }) { server, manager in
            let api = FindByMembersAPI(self: "me", manager: "boss", headers: ["a", "b"], call: 3).using(manager)
            api.options.baseURL = server.baseURL
            try await api.start()
            #expect(server.requests.last?.target.hasSuffix("/members/me?manager=boss&headers=a&headers=b&call=3") == true)
            // Only `self` and BaseAPI's public members (`options`, `rpcDelegate`) and its nested
            // `ResponseHeaders` need a new name; the rest keep the manifest's.
            #expect(api.selfValue == "me" && api.manager == "boss" && api.headers == ["a", "b"])
            #expect(api.call == 3 && api.start == nil && api.optionsParameter == nil && api.rpcDelegateParameter == nil)
            #expect(api.options.headers.isEmpty && api.rpcDelegate == nil)
        }
    }

    @Test("Parameters named as Swift's keywords are escaped in Swift and sent under the manifest's names")
    func keywordNamedParameters() async throws {
        try await withServer({ _ in Response(status: .noContent) }) { server, manager in
            let api = FindByKeywordsAPI(class: "a", default: "b", in: "c", Type: "e").using(manager)
            api.options.baseURL = server.baseURL
            try await api.start()
            let query = server.requests.last?.target.split(separator: "?").last.map(String.init) ?? ""
            #expect(Set(query.split(separator: "&").map(String.init)) == ["class=a", "default=b", "in=c", "Type=e"])
            #expect(api.class == "a" && api.default == "b" && api.in == "c" && api.Type == "e")
        }
    }

    @Test("A RetryPolicy model is the whole body and the reply; a declared error body named ErrorResponse decodes")
    func retryPolicyModel() async throws {
        try await withServer({ request in
            request.target.hasSuffix("/2/retry-policy")
                ? .json(#"{"message": "no such webhook"}"#, status: .notFound)
                : .json(#"{"max_attempts": 5, "backoff": "fixed"}"#)
        }) { server, manager in
            let policy = ShadowingClient.RetryPolicy(maxAttempts: 5, backoff: .fixed)
            let api = SetWebhookRetriesAPI(id: 1, body: policy).using(manager)
            api.options.baseURL = server.baseURL
            let sent = try await api.start()
            #expect(sent == policy)
            #expect(server.requests.last?.bodyText == #"{"backoff":"fixed","max_attempts":5}"#)

            let missing = SetWebhookRetriesAPI(id: 2, body: policy).using(manager)
            missing.options.baseURL = server.baseURL
            let error = await #expect(throws: APIError.self) { try await missing.start() }
            #expect(error?.serverError as? ShadowingClient.ErrorResponse == ShadowingClient.ErrorResponse(message: "no such webhook"))
        }
    }
}
