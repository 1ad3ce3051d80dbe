import APIGenKit
import APIManifest
import Foundation
import Testing

/// `apigen diff` over the example workspace and copies of it edited as an API owner would edit
/// them: each kind of breaking change at its line, additions as notes, exit statuses.
@Suite("apigen diff: breaking changes between two versions of a workspace", .serialized, .ownThread)
struct DiffTests {
    /// A copy of the example workspace (`apis/`) in a folder of its own, beside links to the
    /// package's `Sources` and `templates`, so that its `output:` is the committed generated code
    /// (and its protoc record) and nothing is generated to describe it.
    struct ExampleCopy {
        let root: URL
        var workspaceFile: String { root.appendingPathComponent("apis/workspace.yaml").path }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID())")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let package = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            try FileManager.default.copyItem(at: package.appendingPathComponent("apis"), to: root.appendingPathComponent("apis"))
            for link in ["Sources", "templates"] {
                try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(link), withDestinationURL: package.appendingPathComponent(link))
            }
        }

        /// Replaces `old` with `new` in `file` (under `apis/`); the text must be there.
        func edit(_ file: String, _ old: String, _ new: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            let url = root.appendingPathComponent("apis").appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(old), "\(file) has no '\(old)'", sourceLocation: sourceLocation)
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static func describe(_ workspaceFile: String) throws -> WorkspaceDescription {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: workspaceFile, into: &diagnostics)
        return try #require(described, "\(diagnostics.sorted)").1
    }

    /// The edits both versions share: Role made a frozen enum, so that removing one of its values
    /// is the change under test.
    static func frozenRole(_ copy: ExampleCopy) throws {
        try copy.edit("users.yaml", "    description: What a user may do.\n    enum: [admin, member, guest]", "    description: What a user may do.\n    enum: [admin, member, guest]\n    frozen: true")
    }

    @Test("Each kind of breaking change in REST and JSON-RPC, at the new version's line; additions as notes; exit 1, JSON for CI, and 0 with nothing breaking")
    func restAndJSONRPC() throws {
        let old = try ExampleCopy()
        let new = try ExampleCopy()
        defer { old.remove(); new.remove() }
        try Self.frozenRole(old)
        try Self.frozenRole(new)
        // A removed API, a method and a path changed, a parameter narrowed and its default changed.
        try new.edit("users.yaml", "  GetProfile:\n", "  GetProfileGone:\n")
        try new.edit("users.yaml", "No Content.\n    method: DELETE", "No Content.\n    method: POST")
        try new.edit("users.yaml", "    path: /users/{id}\n    parameters:\n      id: { type: Int, example: 7 }", "    path: /people/{id}\n    parameters:\n      id: { type: Int, example: 7 }")
        try new.edit("users.yaml", #"limit: { type: "Int?", example: 20 }"#, #"limit: { type: "Int32?", example: 20 }"#)
        try new.edit("billing.yaml", "limit: { type: Int, default: 50 }", "limit: { type: Int, default: 20 }")
        // A field removed from a reply, one made required in a request, a frozen enum's value removed.
        try new.edit("users.yaml", "      avatar: URL?\n", "")
        try new.edit("users.yaml", "      location: Coordinates?\n", "      location: Coordinates\n")
        try new.edit("users.yaml", "    enum: [admin, member, guest]\n    frozen: true", "    enum: [admin, member]\n    frozen: true")
        // JSON-RPC: a remote method renamed, an endpoint moved.
        try new.edit("calculator.yaml", "    method: sum\n", "    method: add\n")
        try new.edit("calculator.yaml", "    url: /jsonrpc\n    method: subtract\n    params: byPosition", "    url: /rpc\n    method: subtract\n    params: byPosition")
        // Additions: a new optional field, a new API.
        try new.edit("weather.yaml", "      summary: String?\n", "      summary: String?\n      humidity: Double?\n")
        try new.edit("weather.yaml", "apis:\n", "apis:\n  GetAlerts: { method: GET, path: /alerts, baseURL: \"https://weather.example.net/v2\", response: \"[String]\" }\n")

        let changes = WorkspaceDiff.changes(from: try Self.describe(old.workspaceFile), to: try Self.describe(new.workspaceFile))
        let lines = changes.map { $0.diagnostic.replacingOccurrences(of: new.root.path + "/", with: "") }
        #expect(lines == [
            "apis/billing.yaml:41:3: error: ListInvoices: the default of parameter 'limit' changed from 50 to 20: what was built from the old version uses the old one",
            "apis/calculator.yaml:10:3: error: Subtract: its endpoint changed from '/jsonrpc' to '/rpc'",
            "apis/calculator.yaml:34:3: error: Sum: its remote method changed from sum to add",
            "apis/users.yaml:1:1: error: GetProfile: the API was removed; apps already shipped call it",
            "apis/users.yaml:3:3: error: User.avatar: the field was removed; apps already shipped read it",
            "apis/users.yaml:23:7: error: Address.location: the field is required now, optional before: apps already shipped may leave it out",
            "apis/users.yaml:30:3: error: Role: value 'guest' was removed; apps already shipped may send it",
            "apis/users.yaml:50:3: error: GetUser: its path changed from /users/{id} to /people/{id}",
            "apis/users.yaml:70:3: error: ListUsers: parameter 'limit' changed from Int? to Int32?: narrower: apps already shipped may send what it no longer takes",
            "apis/users.yaml:116:3: error: DeleteUser: its method changed from DELETE to POST",
            "apis/users.yaml:62:3: note: GetProfileGone: a new API",
            "apis/weather.yaml:9:7: note: Forecast.humidity: a new optional field",
            "apis/weather.yaml:12:3: note: GetAlerts: a new API",
        ])

        // The command: a line each on standard error, exit 1; JSON for CI; exit 0 when nothing breaks.
        let run = try APIGenBinary.run(["diff", old.workspaceFile, new.workspaceFile], in: new.root)
        #expect(run.status == 1)
        #expect(run.stderr == changes.map(\.diagnostic).joined(separator: "\n") + "\napigen diff: 10 breaking changes, 3 compatible\n")
        let json = try APIGenBinary.run(["diff", old.workspaceFile, new.workspaceFile, "--json"], in: new.root)
        #expect(json.status == 1)
        struct Report: Decodable { var breaking: Int; var compatible: Int; var changes: [WorkspaceChange] }
        let report = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8))
        #expect(report.breaking == 10 && report.compatible == 3 && report.changes == changes)
        let quiet = try APIGenBinary.run(["diff", old.workspaceFile, new.workspaceFile, "-q"], in: new.root)
        #expect(!quiet.stderr.contains(": note: "))
        let same = try APIGenBinary.run(["diff", old.workspaceFile, old.workspaceFile], in: new.root)
        #expect(same.status == 0)
        #expect(same.stderr == "apigen diff: 0 breaking changes, 0 compatible\n")
    }

    @Test("Which way a value flows decides: a reply's field may be made required and a parameter widened; the reverse breaks")
    func directions() throws {
        let old = try ExampleCopy()
        let new = try ExampleCopy()
        defer { old.remove(); new.remove() }
        // Forecast is only read; ListUsers' cursor only sent.
        try new.edit("weather.yaml", "      summary: String?\n", "      summary: String\n")
        try new.edit("weather.yaml", "      temperature: Double\n", "      temperature: Int\n")
        // A type of the new version only: a reply's text narrowed to one of its values.
        try new.edit("weather.yaml", "      city: String\n", "      city: City\n")
        try new.edit("weather.yaml", "\napis:\n", "  City: { enum: [Lisbon, Porto] }\n\napis:\n")
        try new.edit("users.yaml", #"cursor: { type: "String?", example: "x y&z=1+2" }"#, #"cursor: { type: "String", example: "x y&z=1+2" }"#)
        try new.edit("users.yaml", #"limit: { type: "Int?", example: 20 }"#, #"limit: { type: "Double?", example: 20 }"#)
        let lines = WorkspaceDiff.changes(from: try Self.describe(old.workspaceFile), to: try Self.describe(new.workspaceFile))
            .map { $0.diagnostic.replacingOccurrences(of: new.root.path + "/", with: "") }
        #expect(lines == [
            "apis/users.yaml:70:3: error: ListUsers: parameter 'cursor' is required now, optional before: apps already shipped may leave it out",
            "apis/users.yaml:70:3: note: ListUsers: parameter 'limit' changed from Int? to Double?: wider: it takes every value it took",
            "apis/weather.yaml:6:7: note: Forecast.city: the field changed from String to City: narrower: apps already shipped read every value it may hold",
            "apis/weather.yaml:7:7: note: Forecast.temperature: the field changed from Double to Int: narrower: apps already shipped read every value it may hold",
            "apis/weather.yaml:8:7: note: Forecast.summary: the field is required now, optional before: apps already shipped read it as before",
        ])
    }

    @Test("--against REF compares the workspace with the same file at a git revision; a revision that does not exist is an error")
    func againstARevision() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        func git(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments
            process.currentDirectoryURL = copy.root
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        try git(["init", "-q"])
        try git(["add", "-A"])
        try git(["commit", "-q", "-m", "one"])

        let unchanged = try APIGenBinary.run(["diff", "--against", "HEAD"], in: copy.root)
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        try copy.edit("weather.yaml", "      city: String\n", "")
        let changed = try APIGenBinary.run(["diff", "--against", "HEAD"], in: copy.root)
        #expect(changed.status == 1)
        #expect(changed.stderr == "apis/weather.yaml:4:3: error: Forecast.city: the field was removed; apps already shipped read it\napigen diff: 1 breaking change, 0 compatible\n")
        let missing = try APIGenBinary.run(["diff", "--against", "no-such-branch"], in: copy.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("error: git archive --format=tar -o "))
        #expect(missing.stderr.contains("no-such-branch"))
        let both = try APIGenBinary.run(["diff", "a.yaml", "b.yaml", "--against", "HEAD"], in: copy.root)
        #expect(both.status == 64)
    }

    @Test("gRPC: a method's streaming shape changed, a field number reused under another name, a field's type changed, a field removed; a field added or removed with its number reserved is a note", .needsProtoTools)
    func protos() throws {
        let old = try ExampleCopy()
        let new = try ExampleCopy()
        defer { old.remove(); new.remove() }
        try new.edit("protos/routeguide/route_guide.proto", "rpc ListFeatures(geo.Rectangle) returns (stream Feature);", "rpc ListFeatures(geo.Rectangle) returns (Feature);")
        try new.edit("protos/routeguide/route_guide.proto", "  string name = 1;\n  geo.Point location = 2;", "  bytes name = 1;\n  geo.Point place = 2;")
        try new.edit("protos/routeguide/route_guide.proto", "  int32 distance = 3;\n", "  int32 climb = 5;\n")
        try new.edit("protos/routeguide/route_guide.proto", "  string message = 2;\n", "  reserved 2;\n")
        let lines = WorkspaceDiff.changes(from: try Self.describe(old.workspaceFile), to: try Self.describe(new.workspaceFile))
            .map { $0.diagnostic.replacingOccurrences(of: new.root.path + "/", with: "") }
        #expect(lines == [
            "apis/routes.yaml:11:3: error: ListFeatures: it was a server-streaming call and is a unary call now",
            "apis/routes.yaml:11:3: error: routeguide.Feature.name: field 1 changed from string to bytes; what was built from the old proto reads it wrong",
            "apis/routes.yaml:11:3: error: routeguide.Feature.location: field 2 is 'place' now; its JSON name and generated property changed",
            "apis/routes.yaml:11:3: error: routeguide.RouteSummary.distance: field 3 was removed; what was built from the old proto still sends and reads it (reserve its number to say it is gone for good)",
            "apis/routes.yaml:11:3: note: routeguide.RouteNote.message: field 2 was removed and its number reserved",
            "apis/routes.yaml:11:3: note: routeguide.RouteSummary.climb: a new field 5",
        ])
    }

    @Test("What the wire knows decides: a body's encoding, placeholders moved (not renamed), error bodies, an envelope, header names in any case, defaults as values")
    func wireIdentity() throws {
        let old = try ExampleCopy()
        let new = try ExampleCopy()
        defer { old.remove(); new.remove() }
        try old.edit("users.yaml", "    path: /users/{id}\n    parameters:\n      id: { type: Int, example: 7 }", "    path: /users/{id}/{part}\n    parameters:\n      id: { type: Int, example: 7 }\n      part: String")
        try new.edit("users.yaml", "    path: /users/{id}\n    parameters:\n      id: { type: Int, example: 7 }", "    path: /users/{part}/{id}\n    parameters:\n      id: { type: Int, example: 7 }\n      part: String")
        try new.edit("calculator.yaml", "      - a: Int\n", "      - x: Int\n")
        try new.edit("auth.yaml", "    body: form\n", "")
        try new.edit("workspace.yaml", "default: Problem", "default: ValidationErrors")
        try new.edit("calculator.yaml", #"apiVersion: "2""#, #"apiVersion: "3""#)
        try new.edit("users.yaml", "name: Idempotency-Key", "name: idempotency-key")
        try new.edit("workspace.yaml", "baseURL: https://api.example.com/v1", "baseURL: https://api.example.com/v1/")
        try new.edit("billing.yaml", "status: { type: InvoiceStatus, default: open }", "status: { type: String, default: open }")
        let lines = WorkspaceDiff.changes(from: try Self.describe(old.workspaceFile), to: try Self.describe(new.workspaceFile))
            .map { $0.diagnostic.replacingOccurrences(of: new.root.path + "/", with: "") }
        // The header in other case and the base URL with a trailing slash are the same on the wire.
        #expect(lines == [
            "apis/auth.yaml:14:3: error: SignIn: its body is sent as a JSON object of its parameters now, as a form before",
            #"apis/calculator.yaml:85:3: error: Divide: its envelope's extra members are apiVersion: "3", trace: true now, apiVersion: "2", trace: true before"#,
            "apis/users.yaml:50:3: error: GetUser: parameter 'id' moved from placeholder 1 of the path to placeholder 2; apps already shipped send another value there",
            "apis/users.yaml:50:3: error: GetUser: parameter 'part' moved from placeholder 2 of the path to placeholder 1; apps already shipped send another value there",
            "apis/workspace.yaml:1:1: error: defaults: the body of the workspace's error replies is ValidationErrors now, Problem before; apps already shipped read the old one",
            "apis/billing.yaml:41:3: note: ListInvoices: parameter 'status' changed from InvoiceStatus to String: wider: it takes every value it took",
            "apis/calculator.yaml:34:3: note: Sum: parameter 'a' is 'x' now, in its place; its name is not on the wire",
            "apis/calculator.yaml:48:3: note: Update: parameter 'a' is 'x' now, in its place; its name is not on the wire",
        ])
    }

    @Test("A version that cannot be described exits 2, told apart from a breaking change")
    func cannotCompare() throws {
        let copy = try ExampleCopy()
        defer { copy.remove() }
        try copy.edit("users.yaml", "    method: GET\n    path: /users/{id}\n", "    method: FETCH\n    path: /users/{id}\n")
        let run = try APIGenBinary.run(["diff", "apis/workspace.yaml", copy.workspaceFile], in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: the new workspace (\(copy.workspaceFile)) has errors, so it cannot be compared:"))
    }
}
