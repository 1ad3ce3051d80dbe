@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing
import WireTestSupport

/// Attaches `Caller.token` only once the server has challenged the call, as Digest, NTLM or a
/// container registry's token flow do: the first attempt carries no credential.
struct ChallengeFirst: APIInterceptor {
    /// A key every user's calls carry from the first attempt (an app's API key); nil for none.
    var appKey: String?

    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        if let appKey { request.headerFields[HTTPField.Name("X-API-Key")!] = appKey }
        guard context.attempt > 1, let token = Caller.token else { return request }
        request.headerFields[.authorization] = "Bearer " + token
        return request
    }

    func retryDecision(after outcome: Result<APIResponse, APIError>, sent request: APIRequest, context: APICallContext) async -> RetryDecision {
        guard case .success(let response) = outcome, response.httpStatus == .unauthorized, request.headerFields[.authorization] == nil else {
            return .doNotRetry
        }
        return .retry
    }
}

/// Attaches the token of the app's current account, which the user may switch at any time.
struct CurrentAccount: APIInterceptor {
    let token: NIOLockedValueBox<String>

    func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        var request = request
        request.headerFields[.authorization] = "Bearer " + token.withLockedValue { $0 }
        return request
    }
}

@Suite("Credentials that change between attempts")
struct CredentialTimingTests {
    /// 401 with a challenge to a call without credentials; otherwise the caller's own reply.
    static func challenging(delay: Duration = .zero) -> LoopbackServer.Handler {
        { request in
            guard let authorization = request.headers[.authorization] else {
                return ResponseCacheTests.reply("who are you?", [("WWW-Authenticate", "Bearer")], status: .unauthorized)
            }
            try await Task.sleep(for: delay)
            return ResponseCacheTests.reply("me: " + authorization)
        }
    }

    @Test(
        "A credential added after a challenge keys the reply: the next user, challenged too, is not answered with the first one's reply",
        arguments: [nil, "app-key"]
    )
    func challengedCredentialKeysTheReply(appKey: String?) async throws {
        try await withServer(configure: { $0.interceptors = [ChallengeFirst(appKey: appKey)]; $0.cache = .memory() }, Self.challenging()) {
            (server: LoopbackServer, manager: APIManager) async throws in
            let ann = try await Caller.$token.withValue("ann") { try await CallerSeparationTests.me(server).using(manager).start() }
            #expect(ann == "me: Bearer ann")
            let bob = try await Caller.$token.withValue("bob") { try await CallerSeparationTests.me(server).using(manager).start() }
            #expect(bob == "me: Bearer bob")
            // Each one's reply is kept under the credential it was sent with: the next call, which
            // starts without it, is challenged again rather than answered with either.
            #expect(manager.cache.count == 2)
        }
    }

    @Test("Two users challenged at once are not coalesced into one request")
    func challengedUsersAreNotCoalesced() async throws {
        try await withServer(configure: { $0.interceptors = [ChallengeFirst()]; $0.cache = .memory() }, Self.challenging(delay: .milliseconds(300))) {
            (server: LoopbackServer, manager: APIManager) async throws in
            async let ann = Caller.$token.withValue("ann") { try await CallerSeparationTests.me(server).using(manager).start() }
            try await Task.sleep(for: .milliseconds(50))
            async let bob = Caller.$token.withValue("bob") { try await CallerSeparationTests.me(server).using(manager).start() }
            #expect(try await ann == "me: Bearer ann")
            #expect(try await bob == "me: Bearer bob")
        }
    }

    @Test("A retry sent with another user's token (the app switched account meanwhile) does not merge the two accounts")
    func accountSwitchDuringRetry() async throws {
        let token = NIOLockedValueBox("ann")
        try await withServer(configure: {
            $0.interceptors = [CurrentAccount(token: token)]
            $0.cache = .memory()
            $0.retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(10), maxDelay: .milliseconds(20))
        }, { request in
            let authorization = request.headers[.authorization] ?? "nobody"
            if request.path == "/users/2", authorization == "Bearer ann" {
                // The user switches to another account while this call waits to go out again.
                token.withLockedValue { $0 = "bob" }
                return ResponseCacheTests.reply("busy", status: .serviceUnavailable)
            }
            return ResponseCacheTests.reply("profile of " + authorization)
        }) { (server: LoopbackServer, manager: APIManager) async throws in
            #expect(try await CallerSeparationTests.me(server, id: 1).using(manager).start() == "profile of Bearer ann")
            #expect(try await CallerSeparationTests.me(server, id: 2).using(manager).start() == "profile of Bearer bob")
            #expect(try await CallerSeparationTests.me(server, id: 1).using(manager).start() == "profile of Bearer bob")
        }
    }
}
