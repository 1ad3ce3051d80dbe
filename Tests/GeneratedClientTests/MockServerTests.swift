import APIGenKit
import APIGenServe
import APIManifest
import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import ImportedClient
import NIOConcurrencyHelpers
import Testing

/// `apigen serve`'s server, answering the example workspace's generated client and `curl` from
/// the manifests' samples.
@Suite("The mock server of apigen serve")
struct MockServerTests {
    static func routes(_ workspace: String) throws -> MockRoutes {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: workspace, into: &diagnostics)
        let (_, description) = try #require(described, "\(diagnostics.sorted)")
        return MockRoutes(description)
    }

    /// Runs a mock server of `routes` on a free port for `body`, with the lines it logs.
    ///
    /// The server runs on until the test process ends, as `LoopbackServer`s do: cancelling a
    /// Hummingbird server while a connection it accepted waits to be handled traps in NIO's
    /// async channel (`NIOAsyncWriter` deinited without `finish()`), which the tests that leave
    /// clients stalled or walking away make likely. An idle server costs a socket.
    static func withMockServer(
        _ routes: MockRoutes, options: MockServer.Options = MockServer.Options(port: 0),
        body: (_ baseURL: String, _ log: NIOLockedValueBox<[String]>) async throws -> Void
    ) async throws {
        let log = NIOLockedValueBox<[String]>([])
        let server = MockServer(routes: routes, options: options) { line in log.withLockedValue { $0.append(line) } }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        Task { try await server.run { port in continuation.yield(port); continuation.finish() } }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        try await body("http://127.0.0.1:\(port)", log)
    }

    static func manager(_ baseURL: String) -> APIManager {
        var configuration = APIManager.Configuration()
        configuration.baseURLOverrides = [
            "https://api.example.com/v1": baseURL + "/v1",
            "https://calc.example.com/v2/jsonrpc": baseURL + "/v2/jsonrpc",
            "https://weather.example.net/v2": baseURL + "/v2",
        ]
        return APIManager(configuration: configuration)
    }

    @Test("The example workspace's generated client gets each sample, REST and JSON-RPC, and a clear error where there is none")
    func exampleClient() async throws {
        let routes = try Self.routes("apis/workspace.yaml")
        try await Self.withMockServer(routes) { baseURL, log in
            let manager = Self.manager(baseURL)
            #expect(try await GetUserAPI(id: 12).using(manager).start().name == "Sample User")
            #expect(try await CountUsersAPI().using(manager).start() == 42)
            #expect(try await SubtractAPI(minuend: 1, subtrahend: 2).using(manager).start() == 19)
            #expect(try await SumAPI(a: 1, b: 2, c: 3).using(manager).start() == 6)
            #expect(try await GetForecastAPI(city: "Lisbon", apiKey: "k").using(manager).start().temperature == 21.5)
            try await DeleteUserAPI(id: 1).using(manager).start()

            let missing = await expectAPIError { try await ListInvoicesAPI().using(manager).start() }
            #expect(missing?.reason == .httpStatus(code: 501, body: Data(#"{"error":"ListInvoices declares no sample: in its manifest"}"#.utf8)))
            let rpcMissing = await expectAPIError { try await GetDataAPI().using(manager).start() }
            #expect(rpcMissing?.reason == .rpcError(code: -32000, message: "GetData declares no sample: in its manifest", data: nil))
            await manager.shutdown()

            let lines = log.withLockedValue { $0 }
            #expect(lines.count == 8)
            #expect(lines.first?.hasPrefix("GET /v1/users/12 → GetUser 200 (") == true)
            #expect(lines.contains { $0.hasPrefix("POST /v1/jsonrpc → Subtract 200") })
            #expect(lines.contains { $0.hasPrefix("DELETE /v1/users/1 → DeleteUser 204") })
        }
    }

    @Test("A client imported from OpenAPI gets the document's examples, its status included")
    func importedClient() async throws {
        let routes = try Self.routes("Tests/Fixtures/Imported/apis/workspace.yaml")
        try await Self.withMockServer(routes) { baseURL, log in
            var configuration = APIManager.Configuration()
            configuration.baseURLOverrides = ["https://books.example.com/v1": baseURL + "/v1", "http://petstore.swagger.io/v1": baseURL + "/v1"]
            try await withManager(configuration) { manager in
                let books = try await ListBooksAPI(author: "K&R").using(manager).start()
                #expect(books.map(\.title) == ["The C Programming Language: 2nd edition", "Introduction to Algorithms"])
                #expect(try await GetBookAPI(isbn: "9780131103627").using(manager).start().isbn == "9780131103627")
                let added = try await AddBookAPI(body: Book(isbn: "1", title: "New")).using(manager).startWithMetadata()
                #expect(added.value.pages == 1312)
                try await RemoveBookAPI(isbn: "1").using(manager).start()
                // The petstore documents carry no examples: their APIs say so.
                let pets = await expectAPIError { try await ListPetsAPI().using(manager).start() }
                #expect(pets?.reason == .httpStatus(code: 501, body: Data(#"{"error":"ListPets declares no sample: in its manifest"}"#.utf8)))
            }
            #expect(log.withLockedValue { $0 }.contains { $0.hasPrefix("POST /v1/books → AddBook 201") })
        }
    }

    @Test("curl reaches every route: a sample's status, 204 for an API that returns nothing, 501 without a sample, never 404")
    func curlEveryRoute() async throws {
        let routes = try Self.routes("apis/workspace.yaml")
        try await Self.withMockServer(routes) { baseURL, _ in
            // One curl for every route (`--next` starts each request's options afresh): each child
            // process is a Foundation `Process.run()`, which on Linux can crash reading
            // /proc/self/fd while this process has many descriptors open
            // (swiftlang/swift-corelibs-foundation#5472), so the tests start as few as they can.
            var arguments: [String] = []
            var requests: [(line: String, request: String)] = []
            for line in routes.summary where !line.contains("JSON-RPC") {
                let parts = line.split(separator: " ")
                let (method, template, api) = (String(parts[0]), String(parts[1]), String(parts[3]))
                let path = template.replacing(/\{[^}]+\}/, with: "1")
                if !arguments.isEmpty { arguments.append("--next") }
                arguments += ["-s", "-o", "/dev/null", "-w", "%{http_code}\\n", "-X", method, baseURL + path]
                requests.append((line, "\(method) \(path) (\(api))"))
            }
            let statuses = try await curlOutput(arguments).split(separator: "\n").map { Int($0) ?? 0 }
            #expect(statuses.count == requests.count && requests.count > 10)
            for ((line, request), status) in zip(requests, statuses) {
                let expected = line.hasSuffix("(no sample)") ? [204, 501] : [200, 201]
                #expect(expected.contains(status), "\(request) answered \(status)")
            }
            let rpc = try await curlOutput(["-s", "-X", "POST", "-d", #"[{"jsonrpc":"2.0","method":"sum","params":[1,2,3],"id":"a"},{"jsonrpc":"2.0","method":"nope","id":2},{"jsonrpc":"2.0","method":"notify_hello","params":[1]}]"#, baseURL + "/v1/jsonrpc"])
            #expect(rpc == #"[{"jsonrpc":"2.0","result":6,"id":"a"},{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":2}]"#)
            let unknown = try await curl([baseURL + "/v1/nothing/here"])
            #expect(unknown == 404)
            // What the server cannot answer is named, not left out in silence.
            #expect(routes.unserved.contains("CountMembers (CommandEnvelope: an RPC protocol of the app's own)"))
            #expect(routes.unserved.contains { $0.hasSuffix("(gRPC)") })
        }
    }

    @Test("A JSON-RPC sample with an error status answers it alone and in a batch, as a server's failure would")
    func rpcErrorStatusSample() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "module: Down\noutput: Generated\ndefaults:\n  baseURL: https://rpc.example.com\n".write(to: folder.appendingPathComponent("workspace.yaml"), atomically: true, encoding: .utf8)
        try """
            apis:
              Ping:
                kind: jsonrpc
                url: /rpc
                method: ping
                response: String
                sample: { body: pong }
              Broken:
                kind: jsonrpc
                url: /rpc
                method: broken
                response: String
                sample: { status: 500, body: { error: down } }
            """.write(to: folder.appendingPathComponent("rpc.yaml"), atomically: true, encoding: .utf8)
        let routes = try Self.routes(folder.appendingPathComponent("workspace.yaml").path)
        try await Self.withMockServer(routes) { baseURL, _ in
            let ping = try await curlOutput(["-s", "-X", "POST", "-d", #"{"jsonrpc":"2.0","method":"ping","id":1}"#, baseURL + "/rpc"])
            #expect(ping == #"{"jsonrpc":"2.0","result":"pong","id":1}"#)
            let alone = try await curl(["-X", "POST", "-d", #"{"jsonrpc":"2.0","method":"broken","id":1}"#, baseURL + "/rpc"])
            #expect(alone == 500)
            let batch = try await curlOutput(["-s", "-w", " %{http_code}", "-X", "POST", "-d", #"[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method":"broken","id":2}]"#, baseURL + "/rpc"])
            #expect(batch == #"{"error":"down"} 500"#)
        }
    }

    @Test("--fail-rate 1 answers 503 to every call; --latency holds each answer back")
    func faultsAndLatency() async throws {
        let routes = try Self.routes("apis/workspace.yaml")
        try await Self.withMockServer(routes, options: MockServer.Options(port: 0, failRate: 1)) { baseURL, log in
            let manager = Self.manager(baseURL)
            let error = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(error?.reason == .httpStatus(code: 503, body: Data(#"{"error":"a failure apigen serve injected (--fail-rate)"}"#.utf8)))
            await manager.shutdown()
            #expect(log.withLockedValue { $0 }.allSatisfy { $0.contains("CountUsers 503") })
        }
        try await Self.withMockServer(routes, options: MockServer.Options(port: 0, latency: .milliseconds(300))) { baseURL, _ in
            let manager = Self.manager(baseURL)
            let start = ContinuousClock.now
            let count = try await CountUsersAPI().using(manager).start()
            #expect(count == 42)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            await manager.shutdown()
        }
    }
}

/// The status curl got for `arguments`.
func curl(_ arguments: [String]) async throws -> Int {
    Int(try await curlOutput(arguments + ["-s", "-o", "/dev/null", "-w", "%{http_code}"])) ?? 0
}

/// What curl printed for `arguments`. It waits for curl without holding a thread of the
/// cooperative pool, where the server's handlers run: two tests blocking both threads of a
/// two-core machine would wait on a server that cannot answer.
func curlOutput(_ arguments: [String]) async throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    return try await withCheckedThrowingContinuation { continuation in
        // curl's output here is a status or a short reply, well within a pipe's buffer.
        process.terminationHandler = { _ in
            continuation.resume(returning: String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
}
