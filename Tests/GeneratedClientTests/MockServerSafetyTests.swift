import APIGenKit
import APIGenServe
import APIManifest
import Foundation
import Testing

/// `apigen serve` left running: what it does with requests that are not a developer's app's, and
/// with a caller that asks too much, and what `apigen` does with its companion tools when it is
/// told to stop.
@Suite("apigen serve is safe to leave running")
struct MockServerSafetyTests {
    static let example = "apis/workspace.yaml"

    @Test("A request naming another host (DNS rebinding) or sent by a page of another origin is refused; this machine's names are answered")
    func foreignHostsAndOrigins() async throws {
        let routes = try MockServerTests.routes(Self.example)
        try await MockServerTests.withMockServer(routes) { baseURL, _ in
            let port = baseURL.split(separator: ":").last.map(String.init) ?? ""
            let url = baseURL + "/v1/users/count"
            #expect(try await curl(["-H", "Host: attacker.example:\(port)", url]) == 403)
            let refusal = try await curlOutput(["-s", "-H", "Host: attacker.example", url])
            #expect(refusal == #"{"error":"apigen serve answers requests to this machine only (Host: 127.0.0.1, localhost or [::1]); this one names 'attacker.example'"}"#)
            #expect(try await curl(["-H", "Origin: https://attacker.example", url]) == 403)
            #expect(try await curl(["-H", "Host: localhost:\(port)", url]) == 200)
            #expect(try await curl(["-H", "Host: [::1]:\(port)", url]) == 200)
            #expect(try await curl(["-H", "Origin: http://localhost:3000", url]) == 200)
            #expect(try await curl([url]) == 200)
        }
    }

    @Test("A body past the bound is answered 413, and the server goes on answering")
    func bounds() async throws {
        let routes = try MockServerTests.routes(Self.example)
        let large = FileManager.default.temporaryDirectory.appendingPathComponent("serve-large-\(UUID())")
        try Data(repeating: UInt8(ascii: "1"), count: 2 << 20).write(to: large)
        defer { try? FileManager.default.removeItem(at: large) }
        try await MockServerTests.withMockServer(routes) { baseURL, _ in
            let tooLarge = try await curl(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + large.path, baseURL + "/v1/jsonrpc"])
            #expect(tooLarge == 413)
            let small = try await curl(["-X", "POST", "-d", #"{"jsonrpc":"2.0","method":"sum","params":[1,2,3],"id":1}"#, baseURL + "/v1/jsonrpc"])
            #expect(small == 200)
        }
    }

    @Test("An empty batch is one Invalid Request error, as the specification answers it; so is a batch past the bound, however many members it has")
    func batches() async throws {
        let routes = try MockServerTests.routes(Self.example)
        try await MockServerTests.withMockServer(routes, options: MockServer.Options(port: 0, maxBatchRequests: 3)) { baseURL, log in
            let empty = try await curlOutput(["-s", "-w", " %{http_code}", "-X", "POST", "-d", "[]", baseURL + "/v1/jsonrpc"])
            #expect(empty == #"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null} 200"#)
            let member = #"{"jsonrpc":"2.0","method":"sum","params":[1,2,3],"id":1}"#
            let four = "[" + Array(repeating: member, count: 4).joined(separator: ",") + "]"
            let tooMany = try await curlOutput(["-s", "-X", "POST", "-d", four, baseURL + "/v1/jsonrpc"])
            #expect(tooMany == #"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: a batch of 4 requests; apigen serve answers at most 3"},"id":null}"#)
            let three = "[" + Array(repeating: member, count: 3).joined(separator: ",") + "]"
            let answered = try await curlOutput(["-s", "-X", "POST", "-d", three, baseURL + "/v1/jsonrpc"])
            #expect(answered == "[" + Array(repeating: #"{"jsonrpc":"2.0","result":6,"id":1}"#, count: 3).joined(separator: ",") + "]")
            #expect(log.withLockedValue { $0 }.count == 3)
        }
    }

    @Test("An API another answers first is a warning at its line, naming the one that answers and a request that shows it")
    func collidingRoutes() throws {
        let scratch = try ScratchWorkspace(baseURL: "https://api.example.com/v1", api: """
            apis:
              GetUser:
                method: GET
                path: /users/{id}
                parameters: { id: Int }
                response: JSON
              GetProfile:
                method: GET
                path: /me
                baseURL: https://profiles.example.com/v1
                response: JSON
                sample: { body: { name: Ada } }
              GetMe:
                method: GET
                path: /me
                response: JSON
              Ping:
                kind: jsonrpc
                url: /rpc
                method: ping
                response: String
                sample: { body: pong }
              PingNamed:
                kind: jsonrpc
                url: /rpc
                method: ping
                params: byName
                response: String
                sample: { body: pang }
              GetFile:
                method: GET
                path: /files/{name}
                parameters: { name: String }
                response: JSON
              GetFileJSON:
                method: GET
                path: /files/{name}.json
                parameters: { name: String }
                response: JSON
              PostRPC:
                method: POST
                path: /rpc/
                response: JSON
            """)
        defer { scratch.remove() }
        let routes = try MockServerTests.routes(scratch.workspaceFile)
        let file = scratch.apiFile
        #expect(routes.collisions.map(\.diagnostic) == [
            "\(file):13:3: warning: 'GetMe' is served at GET /v1/me, but 'GetProfile' (\(file):7:3) answers first: GET /v1/me reaches 'GetProfile', not 'GetMe'",
            "\(file):23:3: warning: 'PingNamed' is served at POST /v1/rpc (JSON-RPC ping), but 'Ping' (\(file):17:3) answers first: JSON-RPC ping reaches 'Ping', not 'PingNamed'",
            "\(file):35:3: warning: 'GetFileJSON' is served at GET /v1/files/{name}.json, but 'GetFile' (\(file):30:3) answers first: GET /v1/files/x.json reaches 'GetFile', not 'GetFileJSON'",
            "\(file):40:3: warning: 'PostRPC' is served at POST /v1/rpc/, but 'Ping' (\(file):17:3) answers first: POST /v1/rpc/ reaches 'Ping', not 'PostRPC'",
        ])
        #expect(try MockServerTests.routes(Self.example).collisions.isEmpty)
    }

    @Test("Numbers no clock or bound can take are refused with a clear error, not a trap")
    func numericOptions() async throws {
        let tool = URL(fileURLWithPath: ".build/debug/apigen-serve")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "run 'swift build --product apigen-serve' first")
        let cases = [
            (["--latency", "inf"], "--latency is seconds, from 0 to 3600; found inf"),
            (["--latency", "1e300"], "--latency is seconds, from 0 to 3600; found 1e+300"),
            (["--fail-rate", "nan"], "--fail-rate is a share of requests, from 0 to 1; found nan"),
            (["--max-request-bytes", "0"], "--max-request-bytes is from 1 to 1073741824 (1 GiB); found 0"),
            (["--max-concurrent-requests=-1"], "--max-concurrent-requests is from 1 to 10000; found -1"),
            (["--max-batch-requests", "0"], "--max-batch-requests is from 1 to 10000; found 0"),
        ]
        for (arguments, message) in cases {
            let run = try await runTool(tool, ["-w", Self.example] + arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.errors.contains(message), "\(arguments): \(run.errors)")
        }
    }

    @Test("SIGTERM, SIGINT or SIGHUP to apigen ends the server it runs, which gives its port back; apigen exits as the signal says")
    func signalsReachTheCompanion() async throws {
        let apigen = URL(fileURLWithPath: ".build/debug/apigen")
        try #require(FileManager.default.isExecutableFile(atPath: apigen.path), "run 'swift build --product apigen' first")
        try #require(FileManager.default.isExecutableFile(atPath: ".build/debug/apigen-serve"), "run 'swift build --product apigen-serve' first")
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let process = Process()
            process.executableURL = apigen
            process.arguments = ["serve", "-w", Self.example, "--port", "0", "-q"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let ended = AsyncStream<Int32>.makeStream()
            process.terminationHandler = { ended.continuation.yield($0.terminationStatus) }
            try process.run()
            let pid = process.processIdentifier
            let children = "/proc/\(pid)/task/\(pid)/children"
            var server: Int32?
            for _ in 0..<100 where server == nil {
                server = (try? String(contentsOfFile: children, encoding: .utf8)).flatMap { Int32($0.split(separator: " ").first ?? "") }
                if server == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            let companion = try #require(server, "apigen started no apigen-serve")
            // The server's signal handling starts with it; give it a moment to be listening.
            try await Task.sleep(for: .milliseconds(500))
            kill(pid, signal)
            var statuses = ended.stream.makeAsyncIterator()
            let status = await statuses.next()
            #expect(status == 128 + signal, "signal \(signal)")
            var gone = false
            for _ in 0..<100 where !gone {
                gone = kill(companion, 0) != 0
                if !gone { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(gone, "apigen-serve (\(companion)) outlived apigen after signal \(signal)")
        }
    }

    @Test("Requests past the bound are answered 503 at once with Retry-After; a client that walks away during the latency frees its slot at once, one that stalls mid-body holds it only until its connection goes idle")
    func slotsComeBack() async throws {
        let routes = try MockServerTests.routes(Self.example)
        let options = MockServer.Options(port: 0, latency: .seconds(30), maxConcurrentRequests: 2)
        try await MockServerTests.withMockServer(routes, options: options) { baseURL, _ in
            let url = baseURL + "/v1/users/count"
            // Two callers give up after a fraction of a second; the latency would hold them 30 s.
            for _ in 0..<2 { _ = try await curl(["--max-time", "0.3", url]) }
            // A third is taken (and waits out the latency), not refused: curl's own limit ends it.
            #expect(try await curl(["--max-time", "1", url]) == 0)
        }
        try await MockServerTests.withMockServer(routes, options: MockServer.Options(port: 0, maxConcurrentRequests: 2)) { baseURL, _ in
            let url = baseURL + "/v1/jsonrpc"
            // Two uploads that send their headers and then nothing: a chunked body from a pipe never written.
            var stalled: [Process] = []
            for _ in 0..<2 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                process.arguments = ["-s", "-o", "/dev/null", "-X", "POST", "-T", "-", url]
                process.standardInput = Pipe()
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                stalled.append(process)
            }
            defer { for process in stalled where process.isRunning { process.terminate() } }
            try await Task.sleep(for: .milliseconds(500))
            let refused = try await curlOutput(["-s", "-o", "/dev/null", "-w", "%{http_code} %{header_json}", baseURL + "/v1/users/count"])
            #expect(refused.hasPrefix("503"), "\(refused)")
            #expect(refused.contains(#""retry-after":["1"]"#), "\(refused)")
            // The idle timeout closes both; the slots come back.
            var status = 503
            let started = ContinuousClock.now
            while status == 503, ContinuousClock.now - started < .seconds(20) {
                try await Task.sleep(for: .milliseconds(500))
                status = try await curl([baseURL + "/v1/users/count"])
            }
            #expect(status == 200)
            #expect(ContinuousClock.now - started < .seconds(15))
        }
    }
}
