import APIGenKit
import APIManifest
import Foundation
import Testing

/// `apigen lint` warns where a manifest sends the authentication interceptor's token in clear text.
@Suite("Lint: a token in clear text", .ownThread)
struct CleartextTokenLintTests {
    /// The warnings of a workspace whose default base URL is `baseURL` and whose one API says
    /// `authenticated: true`, with `apiBaseURL` of its own when given.
    func warnings(baseURL: String, apiBaseURL: String? = nil, grpcTarget: String? = nil) throws -> [String] {
        let api = """
            apis:
              GetMe:
                method: GET
                path: /me\(apiBaseURL.map { "\n    baseURL: \($0)" } ?? "")
                authenticated: true
            """
        let workspace = try TemporaryWorkspace(api: api, workspace: "module: TestClient\noutput: ../Generated\ndefaults:\n  baseURL: \(baseURL)\n")
        defer { workspace.remove() }
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .validate)
        #expect(report.succeeded)
        let prefix = workspace.root.path + "/"
        return report.diagnostics.sorted.map { $0.description.replacingOccurrences(of: prefix, with: "") }
    }

    @Test("authenticated: true on an API reached over plain http elsewhere than this machine is a warning at the key")
    func cleartext() throws {
        #expect(try warnings(baseURL: "http://api.example.com") == [
            "apis/api.yaml:5:20: warning: 'authenticated: true' sends the token in clear text to http://api.example.com, which anyone on the way can read: use https (or 'tls: true' for gRPC)",
            "apis/workspace.yaml:4:12: warning: baseURL http://api.example.com is clear text to another machine: the authentication interceptor sends no token there (its calls fail) but to APIs that say 'authenticated: true'; use https",
        ])
        #expect(try warnings(baseURL: "https://api.example.com", apiBaseURL: "http://maps.example.com").count == 1)
    }

    @Test("Over https, or to this machine, no warning", arguments: ["https://api.example.com", "http://localhost:8080", "http://127.0.0.1:8080"])
    func noWarning(baseURL: String) throws {
        #expect(try warnings(baseURL: baseURL).isEmpty)
    }
}
