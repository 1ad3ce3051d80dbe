// Extracted from docs/calling.md by `make doc-samples`. Do not edit.

import APIAsyncHTTPClient
import APIDiskCache
import APIRuntime
import ExampleClient
import Foundation

enum CallingSamples {
    // docs/calling.md:12
    static func sample12() async throws {
        let page = try await ListUsersAPI(role: .admin, limit: 20).start()

        // Callback style, for code that is not async yet:
        GetUserAPI(id: 7).start { result in
            switch result {
            case .success(let user): print(user.name)
            case .failure(let error): print(error)   // "GetUser: HTTP 404 (25-byte body)"; the body itself
            }                                         // only in error.detailedDescription or error.reason
        }

        // Per-call options, on the instance or for one call, and cancellation:
        let api = DownloadTextAPI(name: "notes.txt")
        api.options.timeout = .seconds(5)
        let text = try await api.start(options: APICallOptions(headers: [(name: "X-Trace", value: "abc")]))
        async let again = api.start()
        api.cancel()                                  // fails that call with APIError.Reason.cancelled

        // The value with the reply's header fields (and a gRPC call's trailers), the same options:
        let reply = try await DownloadTextAPI(name: "notes.txt").startWithMetadata(options: APICallOptions(timeout: .seconds(5)))
        print(reply.value, reply.headerFields[.contentType] ?? "")
    }

    // docs/calling.md:44
    static func sample44() async throws {
        // body: multipart, with `photo: File`
        let user = try await UploadAvatarAPI(id: 7, photo: UploadFile(contentsOf: photoURL)).start()

        // body: { type: bytes, contentType: application/pdf }
        try await UploadDocumentAPI(name: "q3.pdf", document: HTTPBody(contentsOf: pdfURL)).start()

        // body: User
        let saved = try await ReplaceUserAPI(id: 7, body: user).start()

        // response: file: streamed to disk, moved into place when whole
        let pdf = try await DownloadDocumentAPI(name: "q3.pdf", destination: downloadsURL).start()

        // Progress of either direction, for a progress bar:
        let upload = UploadAvatarAPI(id: 7, photo: UploadFile(contentsOf: photoURL))
        upload.options.progress = { progress in print(progress.direction, progress.fractionCompleted ?? 0) }
        try await upload.start()

        // response: { events: ActivityEvent }: Server-Sent Events, as they arrive (import APIEventStreams)
        for try await event in try await UserActivityAPI().start() {
            print(event.data.action)
        }
    }

    // docs/calling.md:71
    static func sample71() async throws {
        do {
            try await UpdateUserAPI(id: 7, name: "Ada", etag: tag).start()
        } catch {
            if let invalid = error.serverError as? ValidationErrors { show(invalid.errors) }
        }
    }

    // docs/calling.md:128
    static func sample128() async throws {
        // Where a value came from:
        let reply = try await GetProfileAPI().startWithMetadata()
        switch reply.source {
        case .network: break
        case .cache(let age): print("from the cache, \(age) s old")
        case .revalidated: print("the server said it has not changed")
        case .stale(_, .error(let error)): print("offline: \(error)")
        case .stale: break
        }

        // Per call: the network whatever is stored (pull to refresh), or the cache alone.
        let fresh = try await GetProfileAPI().start(options: APICallOptions(cachePolicy: .reload))
        let offline = try? await GetProfileAPI().start(options: APICallOptions(cachePolicy: .cacheOnly))

        // The stored value at once, then the network's.
        for try await update in GetProfileAPI().cacheThenNetwork() { print(update.value.name, update.source.isFromCache) }

        // Removing replies: one call's, a tag's, a signed-out account's (by its token, before or after a
        // refresh, or its session cookie), everything.
        let manager = APIManager.shared
        try manager.cache.remove(GetUserAPI(id: 7))
        manager.cache.removeAll(tagged: "users")
        manager.cache.removeAll(credential: "the-token-being-discarded")
        manager.cache.removeAll()
    }

    // docs/calling.md:159
    static func sample159() async throws {
        APIManager.bootstrap { $0.cache = .disk(maxBytes: 64 << 20) }   // Library/Caches/apigen-responses.sqlite
    }

    // docs/calling.md:206
    static func sample206() async throws {
        let manager = APIManager()
        manager.stub(GetUserAPI.self, delay: .milliseconds(300)) { api in
            User(id: api.id, name: "Ada", role: .member, tags: [], createdAt: .now)
        }
        manager.stub(UpdateUserAPI.self) { _ in
            throw StubError.status(422, json: ValidationErrors(errors: [FieldError(field: "name", message: "taken")]))
        }
        manager.stub(DivideAPI.self) { api in
            guard api.divisor != 0 else { throw StubError.rpcError(code: -32000, message: "division by zero") }
            return api.dividend / api.divisor
        }
        manager.stub(RecordRouteAPI.self) { api in
            let points = try await api.requests.messages()   // what the client stream sent
            return Routeguide_RouteSummary.with { $0.pointCount = Int32(points.count) }
        }
        manager.stub(DeleteUserAPI.self) { _ in }
        manager.stub(SumAPI.self, reply: { _ in StubResponse(json: #"{"jsonrpc":"2.0","result":6,"id":1}"#) })
    }

    // docs/calling.md:255
    static func sample255() async throws {
        let fixture = URL(fileURLWithPath: "Tests/Fixtures/users.json")

        // Once, against the real server:
        var recording = APIManager.Configuration()
        recording.interceptors = [AuthenticationInterceptor(provider: tokens), try ExchangeRecorder(file: fixture)]

        // In every test run after:
        var replaying = APIManager.Configuration()
        replaying.httpTransport = try .replaying(Recording(contentsOf: fixture))
        replaying.grpcTransport = replaying.httpTransport
    }

    // docs/calling.md:313
    static func sample313() async throws {
        APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }
    }

    // docs/calling.md:343
    static func sample343() async throws {
        var configuration = APIManager.Configuration()
        configuration.interceptors = [
            LoggingInterceptor(logger: logger),                                // swift-log, secrets redacted
            MetricsInterceptor(),                                              // swift-metrics, per API
            AuthenticationInterceptor(provider: tokens),                       // refresh once on 401, then a new attempt
        ]
        // An interceptor of your own changes the request in `adapt(_:context:)`, before the cache and the
        // duplicate gate read it (a tenant header, a signature), and observes or answers the call in
        // `intercept(_:context:next:)`.
        // The token goes only to the origin of the workspace's default base URL (after baseURLOverrides),
        // and to APIs elsewhere whose manifest says `authenticated: true`; never to a base URL set at run
        // time elsewhere. `hosts: .declared`, `.named([...])` or `.any` widen that.
        configuration.retry = RetryPolicy(maxAttempts: 3)                     // for APIs whose manifest sets none
        let manager = APIManager(configuration: configuration)

        manager.cancel(tag: "users")                                           // every running call tagged users
        try await GetUserAPI(id: 7).then { user in ListUsersAPI(role: user.role) }   // a chain
        let batch = APIBatch(policy: .failFast)                                // any kinds at once
    }

    // docs/calling.md:377
    struct TenantInterceptor: APIInterceptor {
        let tenant: @Sendable () -> String

        func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
            var request = request
            request.headerFields[.init("X-Tenant")!] = tenant()
            return request
        }

        func intercept(
            _ request: APIRequest, context: APICallContext,
            next: () async throws(APIError) -> APIResponse
        ) async throws(APIError) -> APIResponse {
            let started = ContinuousClock.now
            defer { print("\(context.definition.name), attempt \(context.attempt): \(ContinuousClock.now - started)") }
            return try await next()
        }

        func observe(_ event: CacheEvent, context: APICallContext) {
            if case .hit(let age) = event { print("\(context.definition.name) answered by the cache, \(age) s old") }
        }
    }

    // docs/calling.md:407
    static func sample407() async throws {
        var configuration = APIManager.Configuration()
        configuration.baseURLOverrides = ["https://api.example.com/v1": "http://127.0.0.1:8080/v1"]
        let manager = APIManager(configuration: configuration)
        let user = try await GetUserAPI(id: 7).using(manager).start()
        await manager.shutdown()
    }
}
