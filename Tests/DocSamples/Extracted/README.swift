// Extracted from README.md by `make doc-samples`. Do not edit.

import APIAsyncHTTPClient
import APIRuntime
import ExampleClient
import Foundation

enum READMESamples {
    // README.md:8
    static func sample8() async throws {
        let user = try await GetUserAPI(id: 7).start()
    }

    // README.md:112
    static func sample112() async throws {
        let page = try await ListUsersAPI(role: .admin, limit: 20).start()

        // Per-call options, and cancellation:
        let api = DownloadTextAPI(name: "notes.txt")
        api.options.timeout = .seconds(5)
        let text = try await api.start(options: APICallOptions(headers: [(name: "X-Trace", value: "abc")]))
        api.cancel()
    }

    // README.md:140
    static func sample140() async throws {
        // A screen shows what it had at once, then what is new:
        for try await reply in GetProfileAPI().cacheThenNetwork() { show(reply.value) }

        // Offline: the stored profile, up to a day old, when the server cannot be reached.
        let profile = try await GetProfileAPI().startWithMetadata()
        if case .stale(_, .error) = profile.source { show("offline") }
    }

    // README.md:158
    static func sample158() async throws {
        let manager = APIManager()
        manager.stub(GetUserAPI.self) { api in
            guard api.id == 7 else { throw StubError.status(404) }
            return User(id: api.id, name: "Ada", role: .member, tags: [], createdAt: .now)
        }
        manager.stub(ListFeaturesAPI.self) { _ in [Routeguide_Feature.with { $0.name = "Pier" }] }   // a gRPC stream

        let user = try await GetUserAPI(id: 7).using(manager).start()
        let asked = manager.recordedCalls(of: GetUserAPI.self).map(\.id)   // [7]
    }

    // README.md:189
    static func sample189() async throws {
        APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }
    }

    // README.md:209
    static func sample209() async throws {
        let difference = try await SubtractAPI(minuend: 42, subtrahend: 23).start()   // JSON-RPC 2.0

        let batch = JSONRPCBatch()                                                     // one HTTP request
        let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
        batch.add(NotifyHelloAPI(value: 7))
        try await batch.send()
        print(try sum.get())

        let members = try await CountMembersAPI(group: "admins").start()              // CommandEnvelope

        let hello = try await SayHelloAPI { $0.name = "Ada" }.start()                 // unary
        for try await feature in try await ListFeaturesAPI(area).start() { print(feature.name) }   // server stream
        let summary = try await RecordRouteAPI(producing: { writer in                 // client stream
            for point in route { try await writer.write(point) }
        }).start()
    }
}
