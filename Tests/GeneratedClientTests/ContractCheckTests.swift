import APIWireFormat
import APIGenKit
import APIGenVerify
import APIManifest
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// `apigen verify` against loopback servers: one that matches the manifests, and one whose
/// replies have drifted from them.
@Suite("apigen verify, the contract check")
struct ContractCheckTests {
    /// An API file whose lines the tests name: `User` at line 2, its `name` field at line 5,
    /// `Role` at line 8, `GetUser` at 12, `ListUsers` at 20, `CountUsers` at 25.
    static let apiFile = """
        types:
          User:
            fields:
              id: Int
              name: String
              role: Role
              email: "String?"
          Role:
            enum: [admin, member]

        apis:
          GetUser:
            method: GET
            path: /users/{id}
            parameters:
              id: { type: Int, example: 7 }
              verbose: { type: Bool, in: query, example: true }
            response: User

          ListUsers:
            method: GET
            path: /users
            response: [User]

          CountUsers:
            kind: jsonrpc
            url: /rpc
            method: count
            safe: true
            params: byName
            parameters:
              role: { type: Role, example: admin }
            response: Int

          CreateUser:
            method: POST
            path: /users
            parameters:
              name: String
            response: User

          FindUser:
            method: GET
            path: /users/search
            parameters:
              query: String
            response: User
        """

    /// The workspace in a folder of its own, its base URL `baseURL`.
    static func workspace(baseURL: String) throws -> (file: String, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "module: Users\noutput: Generated\ndefaults:\n  baseURL: \(baseURL)\n".write(to: folder.appendingPathComponent("workspace.yaml"), atomically: true, encoding: .utf8)
        try apiFile.write(to: folder.appendingPathComponent("users.yaml"), atomically: true, encoding: .utf8)
        return (folder.appendingPathComponent("workspace.yaml").path, folder)
    }

    static func check(_ workspaceFile: String, baseURL: String? = nil, apis: Set<String>? = nil) async throws -> ContractReport {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: workspaceFile, into: &diagnostics)
        let (_, description) = try #require(described, "\(diagnostics.sorted)")
        return await ContractCheck(workspace: description, options: .init(baseURL: baseURL, timeout: 10, apis: apis)).run()
    }

    /// A server for the workspace: `user`, `users` and `count` are its replies' JSON.
    static func server(user: String, users: (String, HTTPResponse.Status), count: String) async throws -> LoopbackServer {
        try await LoopbackServer.start { request in
            switch (request.method, request.path) {
            case (.get, "/users/7"): return Response.json(user)
            case (.get, "/users"): return Response.json(users.0, status: users.1)
            case (.post, "/rpc"):
                guard request.bodyText.contains(#""params":{"role":"admin"}"#) else { return Response.json("{}", status: .badRequest) }
                return Response.json(#"{"jsonrpc":"2.0","id":1,"result":\#(count)}"#)
            default: return Response.json("{}", status: .notFound)
            }
        }
    }

    static let matchingUser = #"{"id":7,"name":"Ada","role":"admin"}"#

    @Test("A server that matches the manifests: each safe API called with its examples, the others named with the reason")
    func matchingServer() async throws {
        let server = try await Self.server(user: Self.matchingUser, users: ("[\(Self.matchingUser)]", .ok), count: "3")
        let (file, folder) = try Self.workspace(baseURL: "https://users.example.com")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await Self.check(file, baseURL: server.baseURL)
        await server.stop()

        #expect(report.findings.isEmpty, "\(report.findings.map(\.diagnostic))")
        #expect(report.called == 3)
        let skipped = Dictionary(uniqueKeysWithValues: report.entries.compactMap { entry in entry.skipped.map { (entry.api, $0) } })
        #expect(skipped == ["CreateUser": "POST may change the server", "FindUser": "parameter 'query' has no 'example:'"])
        let requests = server.requests.map { "\($0.method) \($0.target)" }
        #expect(requests == ["GET /users/7?verbose=true", "GET /users", "POST /rpc"])
    }

    @Test("A server that drifted: an extra field, a new enum value, a missing field, a 500 and a wrong result type, each at its manifest line")
    func driftingServer() async throws {
        let server = try await Self.server(
            user: #"{"id":7,"role":"owner","nickname":"ada"}"#,
            users: (#"{"error":"database down"}"#, .internalServerError),
            count: #""three""#
        )
        let (file, folder) = try Self.workspace(baseURL: "https://users.example.com")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await Self.check(file, baseURL: server.baseURL)
        await server.stop()

        let lines = report.findings.map { "\($0.line):\($0.column) \($0.api) \($0.kind.rawValue) \($0.path ?? "-") \($0.breaksDecoding)" }
        #expect(lines == [
            "5:7 GetUser missingField $.name true",
            "8:3 GetUser unknownEnumValue $.role false",
            "2:3 GetUser extraField $.nickname false",
            "20:3 ListUsers undeclaredStatus - true",
            "25:3 CountUsers typeMismatch $.result true",
        ])
        #expect(report.findings.allSatisfy { $0.file.hasSuffix("users.yaml") })
        let role = try #require(report.findings.first { $0.kind == .unknownEnumValue })
        #expect(role.message == "'owner' is not a value of 'Role': it decodes as .unknown")
        #expect(report.summary == "apigen verify: 3 APIs called, 2 not called; 5 mismatches, 3 of them failing the generated client")
    }

    @Test("apigen serve answers from the samples an OpenAPI document's examples gave, so the check of its GET operations is clean")
    func againstTheMockServer() async throws {
        let routes = try MockServerTests.routes("Tests/Fixtures/Imported/apis/workspace.yaml")
        try await MockServerTests.withMockServer(routes) { baseURL, log in
            let report = try await Self.check("Tests/Fixtures/Imported/apis/workspace.yaml", baseURL: baseURL + "/v1", apis: ["ListBooks", "GetBook", "AddBook"])
            #expect(report.findings.isEmpty, "\(report.findings.map(\.diagnostic))")
            #expect(report.entries.map { "\($0.api) \($0.request ?? $0.skipped ?? "")" } == [
                "ListBooks GET \(baseURL)/v1/books",
                "AddBook POST may change the server",
                "GetBook GET \(baseURL)/v1/books/978-0134685991",
            ])
            #expect(log.withLockedValue { $0 }.count == 2)
        }
    }

    @Test("Each base URL of the example workspace pointed at apigen serve, as the manager's overrides point them: GetUser, GetForecast and Subtract read their samples cleanly")
    func baseURLOverrides() async throws {
        let routes = try MockServerTests.routes("apis/workspace.yaml")
        try await MockServerTests.withMockServer(routes) { baseURL, _ in
            var diagnostics = Diagnostics()
            let (_, description) = try #require(Generator.describe(workspaceFile: "apis/workspace.yaml", into: &diagnostics))
            let overrides = [
                "https://api.example.com/v1": baseURL + "/v1",
                "https://calc.example.com/v2/jsonrpc": baseURL + "/v2/jsonrpc",
                "https://weather.example.net/v2": baseURL + "/v2",
            ]
            let options = ContractCheck.Options(baseURL: "http://127.0.0.1:1", baseURLOverrides: overrides, timeout: 10, apis: ["GetUser", "GetForecast", "Subtract"])
            let report = await ContractCheck(workspace: description, options: options).run()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.diagnostic))")
            #expect(report.entries.map { $0.request ?? "" }.sorted() == [
                "GET \(baseURL)/v1/users/7",
                "GET \(baseURL)/v2/forecast?city=Lisbon",
                "POST \(baseURL)/v1/jsonrpc",
            ])
        }
    }

    @Test("A frozen enum's new value fails decoding; a union, a dictionary, dates and days are read as the client reads them")
    func conformanceOfShapes() throws {
        let description = try Self.describe("""
            types:
              Status: { enum: [open, closed], frozen: true }
              Card: { fields: { kind: String, last4: String } }
              Bank: { fields: { kind: String, iban: String } }
              Payment: { oneOf: [Card, Bank], discriminator: kind, mapping: { card: Card, bank: Bank } }
              Ledger:
                fields:
                  status: Status
                  payments: [Payment]
                  totals: "[String: Int]"
                  at: Date
                  seen: { type: Date, format: unixSeconds }
                  stamped: Date
                  due: CalendarDate
            apis:
              GetLedger: { method: GET, path: /ledger, response: Ledger }
            """)
        let conformance = JSONConformance(models: description.models)
        let ledger = try #require(JSONValue.parse(Data("""
            {"status":"archived","payments":[{"kind":"card","last4":"4242"},{"kind":"cash"},{"kind":"bank"}],
             "totals":{"a":1,"b":"2"},"at":"yesterday","seen":1700000000,"stamped":"2024-05-01T12:30:00.250Z","due":"2024-02-30"}
            """.utf8)))
        let problems = conformance.problems(in: ledger, as: .named("Ledger")).map { "\($0.kind.rawValue) \($0.path) \($0.breaksDecoding)" }
        #expect(problems == [
            "unknownEnumValue $.status true",
            "unknownEnumValue $.payments[1].kind true",
            "missingField $.payments[2].iban true",
            "typeMismatch $.totals.b true",
            "typeMismatch $.at true",
            "typeMismatch $.due true",
        ])
    }

    @Test("Nesting is bounded without recursion: text deeper than 128 levels is not parsed, a value deeper than the walk is one mismatch")
    func deepNesting() throws {
        #expect(JSONValue.nestingDepth(of: Data(#"{"a":["[[[{", {"b":"]]"}]}"#.utf8)) == 3)
        let deepText = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        #expect(JSONValue.parse(Data(deepText.utf8)) == nil)
        #expect(JSONValue.parse(Data(deepText.dropFirst().dropLast().utf8)) != nil)

        let description = try Self.describe("types:\n  Tree: { fields: { children: [Tree] } }\napis:\n  GetTree: { method: GET, path: /tree, response: Tree }\n")
        var tree = JSONValue.object(["children": .array([])])
        for _ in 0..<70 { tree = .object(["children": .array([tree])]) }
        let problems = JSONConformance(models: description.models).problems(in: tree, as: .named("Tree"))
        #expect(problems.map(\.message) == ["nested deeper than 128 levels"])
    }

    @Test("A reply nested deeper than the check reads is one finding at the API, not a crash")
    func deepReply() async throws {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let server = try await Self.server(user: Self.matchingUser, users: (deep, .ok), count: "3")
        let (file, folder) = try Self.workspace(baseURL: server.baseURL)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await Self.check(file, apis: ["ListUsers"])
        await server.stop()
        #expect(report.findings.map(\.message) == ["the reply nests 200 levels deep; the check reads at most 128"])
        #expect(report.findings.map(\.line) == [20])
    }

    @Test("A server that accepts the call and never answers is a failed call once the timeout passes, and the check goes on")
    func silentServer() async throws {
        let server = try await LoopbackServer.start { request in
            if request.path == "/users" { try await Task.sleep(for: .seconds(30)) }
            return Response.json(#"{"jsonrpc":"2.0","id":1,"result":3}"#)
        }
        let (file, folder) = try Self.workspace(baseURL: server.baseURL)
        defer { try? FileManager.default.removeItem(at: folder) }
        var diagnostics = Diagnostics()
        let (_, description) = try #require(Generator.describe(workspaceFile: file, into: &diagnostics))
        let started = ContinuousClock.now
        let report = await ContractCheck(workspace: description, options: .init(timeout: 2, apis: ["ListUsers", "CountUsers"])).run()
        // Well before the server's 30 seconds: the call gave up at its timeout.
        #expect(ContinuousClock.now - started < .seconds(20))
        await server.stop()
        #expect(report.entries.map(\.api) == ["ListUsers", "CountUsers"])
        #expect(report.entries.first?.findings.map(\.kind) == [.callFailed])
        #expect(report.entries.last?.request?.hasPrefix("POST ") == true)
    }

    @Test("apigen-verify exits 1 with each mismatch at file:line:col, writes a JSON report with --json, refuses a timeout no clock counts, and exits 0 against a matching server")
    func command() async throws {
        let tool = URL(fileURLWithPath: ".build/debug/apigen-verify")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "run 'swift build --product apigen-verify' first")
        let drifting = try await Self.server(user: #"{"id":7,"name":"Ada","role":"admin","nickname":"ada"}"#, users: ("[]", .ok), count: "3")
        let matching = try await Self.server(user: Self.matchingUser, users: ("[]", .ok), count: "3")
        let (file, folder) = try Self.workspace(baseURL: drifting.baseURL)
        defer { try? FileManager.default.removeItem(at: folder) }

        let text = try await runTool(tool, ["-w", file, "-q"])
        #expect(text.status == 1)
        #expect(text.errors == "\(folder.path)/users.yaml:2:3: error: GetUser: $.nickname: 'User' does not declare field 'nickname' (a string) (the client still decodes the reply)\napigen verify: 3 APIs called, 2 not called; 1 mismatch, 0 of them failing the generated client\n")

        let json = try await runTool(tool, ["-w", file, "--json"])
        #expect(json.status == 1)
        let report = try JSONDecoder().decode(ContractReport.self, from: Data(json.output.utf8))
        #expect(report.findings.map(\.kind) == [.extraField])
        #expect(report.entries.count == 5)

        for timeout in ["1e300", "inf", "nan", "0"] {
            let refused = try await runTool(tool, ["-w", file, "--timeout", timeout])
            #expect(refused.status == 64, "--timeout \(timeout)")
            #expect(refused.errors.contains("--timeout must be more than 0 seconds and at most 86400 (a day)"), "\(refused.errors)")
        }

        let clean = try await runTool(tool, ["-w", file, "--base-url", matching.baseURL])
        #expect(clean.status == 0, "\(clean.errors)")
        #expect(clean.errors.contains("every reply matches the manifests"))
        await drifting.stop()
        await matching.stop()
    }

    static func describe(_ apiFile: String) throws -> WorkspaceDescription {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "module: Shapes\noutput: Generated\n".write(to: folder.appendingPathComponent("workspace.yaml"), atomically: true, encoding: .utf8)
        try apiFile.write(to: folder.appendingPathComponent("shapes.yaml"), atomically: true, encoding: .utf8)
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: folder.appendingPathComponent("workspace.yaml").path, into: &diagnostics)
        return try #require(described, "\(diagnostics.sorted)").1
    }
}

/// What a tool printed and its exit status. Its output goes to files, and it is waited for
/// without holding a thread of the cooperative pool, where the loopback servers answer.
func runTool(_ tool: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String, errors: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-run-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outputFile = folder.appendingPathComponent("stdout")
    let errorFile = folder.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    return (status, try String(contentsOf: outputFile, encoding: .utf8), try String(contentsOf: errorFile, encoding: .utf8))
}
