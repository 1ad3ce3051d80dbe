@testable import APIRuntime
import APITestSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// Per-call options: the instance's, and those given to `start(options:)` over them, above the
/// API's manifest, the workspace's defaults and the manager's configuration.
@Suite("Call options")
struct CallOptionsTests {
    static let defaults = APIDefaults(baseURL: "https://api.example.com/v1", timeout: .seconds(30), headers: [(name: "X-Layer", value: "workspace")])
    static let definition = APIDefinition(
        name: "Echo", wire: .http(.get, path: "/echo"), headers: [(name: "X-API", value: "echo")], timeout: .seconds(20), defaults: defaults
    )

    @Test("Options given to start go over the instance's: a timeout replaces, headers come after, tags add up; the next call is the instance's own")
    func layers() async throws {
        let clock = ManualClock()
        let seen = NIOLockedValueBox<[HTTPFields]>([])
        try await withScriptedManager(clock: clock, respond: { request in
            seen.withLockedValue { $0.append(request.headerFields) }
            try await clock.sleep(for: .seconds(3600))
            return (.status(.ok), Data())
        }) { manager in
            let api = BaseAPI(definition: Self.definition, response: .noContent).using(manager)
            api.options.timeout = .seconds(10)
            api.options.headers = [(name: "X-Layer", value: "instance")]
            api.options.tags = ["screen"]
            let call = Task { try await api.start(options: APICallOptions(timeout: .seconds(5), headers: [(name: "X-Call", value: "1")], tags: ["one"])) }
            // The call's own timeout, 5 s, beats the instance's 10, the API's 20 and the workspace's 30.
            try await waitUntil { clock.pending == [.seconds(5), .seconds(3600)] }
            let headers = try #require(seen.withLockedValue { $0.first })
            #expect(headers[HTTPField.Name("X-Layer")!] == "instance")
            #expect(headers[HTTPField.Name("X-API")!] == "echo")
            #expect(headers[HTTPField.Name("X-Call")!] == "1")
            // Both tags reach it.
            #expect(manager.cancel(tag: "one") == 1)
            #expect(await expectAPIError { try await call.value }?.reason == .cancelled)

            let next = Task { try await api.start() }
            try await waitUntil { seen.withLockedValue(\.count) == 2 }
            #expect(seen.withLockedValue { $0.last?[HTTPField.Name("X-Call")!] } == nil)
            // The first call's alarm, at 5 s, finds nothing due and sets the next, at the
            // instance's 10 s.
            clock.advance(by: .seconds(5))
            try await waitUntil { clock.pending == [.seconds(10), .seconds(3600)] }
            #expect(manager.cancel(tag: "screen") == 1)
            _ = await expectAPIError { try await next.value }
        }
    }

    @Test("Changes to one instance's options from many tasks at once all stay with updateOptions")
    func concurrentUpdates() async {
        let api = BaseAPI(definition: Self.definition, response: .noContent)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<500 { api.updateOptions { $0.tags.insert("\(task)-\(index)") } }
                }
            }
            group.addTask {
                for _ in 0..<500 { api.updateOptions { $0.timeout = .seconds(5) } }
            }
            group.addTask {
                api.updateOptions { $0.headers = [(name: "X-Layer", value: "instance")] }
            }
        }
        #expect(api.options.tags.count == 2_000)
        // The change may read the instance: it runs outside the lock.
        api.updateOptions { $0.tags.insert("count-\(api.options.tags.count)") }
        #expect(api.options.tags.contains("count-2000"))
        #expect(api.options.timeout == .seconds(5) && api.options.headers.map(\.name) == ["X-Layer"])
    }
}
