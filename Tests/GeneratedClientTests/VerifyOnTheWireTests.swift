import APIAsyncHTTPClient
import APIGenKit
import APIGenVerify
import APIManifest
import APIRuntime
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOSSL
import Testing
import WireTestSupport

/// What `apigen verify` does on the wire when a server, or the caller, is not kind: where its
/// `--header` goes, which redirects it follows, how much of a reply it reads, how long it waits,
/// and what it makes of an absurd timeout.
@Suite("apigen verify on the wire")
struct VerifyOnTheWireTests {
    static let bearer = HeaderDescription(name: "Authorization", value: "Bearer secret")

    /// A workspace at `home` with `GetMe` there, `GetPublic` there marked `authenticated: false`,
    /// `SignIn` there without the authentication interceptor,
    /// `GetMaps` at the third party `maps`, and `GetPartner` at `partner` marked
    /// `authenticated: true`.
    static func workspace(home: String, maps: String, partner: String) throws -> WorkspaceDescription {
        try ScratchWorkspace.describe("""
            apis:
              GetMe: { method: GET, path: /me, response: JSON }
              GetPublic: { method: GET, path: /public, authenticated: false, response: JSON }
              SignIn: { method: GET, path: /signin, skipInterceptors: [authentication], response: JSON }
              GetMaps: { method: GET, path: /maps, baseURL: "\(maps)", response: JSON }
              GetPartner: { method: GET, path: /partner, baseURL: "\(partner)", authenticated: true, response: JSON }
            """, baseURL: home)
    }

    @Test("--header goes to the workspace's origin and to 'authenticated: true' APIs; never to a third party, an API that says 'authenticated: false' or one that skips the authentication interceptor")
    func headerScope() async throws {
        let home = try await LoopbackServer.start { _ in .json("{}") }
        let maps = try await LoopbackServer.start { _ in .json("{}") }
        let partner = try await LoopbackServer.start { _ in .json("{}") }
        let workspace = try Self.workspace(home: home.baseURL, maps: maps.baseURL, partner: partner.baseURL)
        let report = await ContractCheck(workspace: workspace, options: .init(headers: [Self.bearer], timeout: 10)).run()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.diagnostic))")
        let homeSeen = home.requests.map { "\($0.path) \($0.headers[.authorization] ?? "-")" }
        #expect(homeSeen == ["/me Bearer secret", "/public -", "/signin -"])
        #expect(maps.requests.map { $0.headers[.authorization] ?? "-" } == ["-"])
        #expect(partner.requests.map { $0.headers[.authorization] ?? "-" } == ["Bearer secret"])
    }

    @Test("--header is not sent in clear text to another machine: the call fails before it is made")
    func headerInClearText() async throws {
        let workspace = try Self.workspace(home: "https://api.example.com", maps: "https://maps.example.com", partner: "https://partner.example.com")
        // No server listens there; a call that were made would fail to connect instead.
        let options = ContractCheck.Options(baseURL: "http://staging.invalid:9", headers: [Self.bearer], timeout: 5, apis: ["GetMe", "GetPublic"])
        let report = await ContractCheck(workspace: workspace, options: options).run()
        let findings = report.entries.map { "\($0.api) \($0.findings.map(\.message))" }
        #expect(findings.first == #"GetMe ["--header is not sent in clear text to http://staging.invalid:9, which is neither TLS nor this machine"]"#)
        // GetPublic carries no header, so it is made, and fails to connect.
        #expect(report.entries.last?.findings.map(\.kind) == [.callFailed])
        #expect(report.entries.last?.findings.first?.message.hasPrefix("no reply from GET http://staging.invalid:9/public") == true)
    }

    @Test("A redirect to another origin is followed without the --header; one from https to http is not followed")
    func redirects() async throws {
        let capture = try await LoopbackServer.start { _ in .json("{}") }
        let plain = try await LoopbackServer.start { request in
            Response(status: .found, headers: [.location: capture.baseURL + "/capture" + request.path])
        }
        let authority = try TestCertificateAuthority()
        let identity = try authority.server()
        let secure = try await LoopbackServer.start(tls: .makeServerConfiguration(
            certificateChain: [.certificate(try identity.nioCertificate)], privateKey: .privateKey(try identity.nioKey)
        )) { request in
            Response(status: .found, headers: [.location: capture.baseURL + "/downgraded" + request.path])
        }
        let roots = try authority.identity.certificatePEM

        let workspace = try Self.workspace(home: plain.baseURL, maps: secure.baseURL, partner: secure.baseURL)
        let options = ContractCheck.Options(headers: [Self.bearer], timeout: 10, apis: ["GetMe", "GetPartner"])
        // Linux's URLSession takes no trust roots of a test's own; AsyncHTTPClient does.
        let check = ContractCheck(workspace: workspace, options: options) { configuration in
            configuration.httpTransport = .asyncHTTPClient
            configuration.tls["localhost"] = TLSSettings(trustRoots: .certificates([roots]))
        }
        let report = await check.run()

        #expect(capture.requests.map { "\($0.path) \($0.headers[.authorization] ?? "-")" } == ["/capture/me -"])
        let partner = try #require(report.entries.last)
        #expect(partner.api == "GetPartner")
        #expect(partner.findings.map(\.kind) == [.invalidReply])
        #expect(partner.findings.first?.message.contains("a redirect from https to http (\(capture.baseURL)/downgraded/partner) is refused") == true, "\(partner.findings)")
    }

    @Test("A reply without end is cut at the runtime's bound; one that trickles fails at --timeout, counted from the start of the call")
    func unboundedReplies() async throws {
        let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024)
        let server = try await LoopbackServer.start { request in
            let endless = request.path == "/me"
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "["))
                while !Task.isCancelled {
                    if endless {
                        try await writer.write(chunk)
                    } else {
                        try await Task.sleep(for: .milliseconds(500))
                        try await writer.write(ByteBuffer(string: " "))
                    }
                }
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: body)
        }
        let workspace = try Self.workspace(home: server.baseURL, maps: server.baseURL, partner: server.baseURL)

        // The manager's bound, 64 MiB unless set, made 1 MiB here so that the test reads little.
        let endless = await ContractCheck(workspace: workspace, options: .init(timeout: 60, apis: ["GetMe"])) { $0.maxResponseBytes = 1 << 20 }.run()
        let cut = try #require(endless.entries.first?.findings.first)
        #expect(cut.kind == .invalidReply)
        #expect(cut.message.contains("larger than 1048576 bytes"), "\(cut.message)")

        let started = ContinuousClock.now
        let trickling = await ContractCheck(workspace: workspace, options: .init(timeout: 2, apis: ["GetPublic"])).run()
        // A byte every half second keeps an idle timeout waiting for ever; the call's timeout does not.
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(trickling.entries.first?.findings.map(\.kind) == [.callFailed])
    }

    @Test("A timeout past what a clock can count waits a day at most instead of trapping, over gRPC as over HTTP")
    func absurdTimeouts() async throws {
        let grpc = try await GRPCTestServer.start()
        var diagnostics = Diagnostics()
        let (_, example) = try #require(Generator.describe(workspaceFile: "apis/workspace.yaml", into: &diagnostics))
        // Not a number is the default, 30 seconds.
        for timeout in [1e300, .infinity, .nan] {
            let options = ContractCheck.Options(grpcURL: grpc.baseURL, timeout: timeout, apis: ["SayHello"])
            let report = await ContractCheck(workspace: example, options: options).run()
            #expect(report.entries.first?.grpcStatus == "OK", "timeout \(timeout): \(report.entries)")
        }
    }

    @Test("apigen-verify takes its secret headers from a file or the environment, and names a bad line of the file without echoing it")
    func secretsOffTheCommandLine() async throws {
        let tool = URL(fileURLWithPath: ".build/debug/apigen-verify")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "run 'swift build --product apigen-verify' first")
        let home = try await LoopbackServer.start { _ in .json("{}") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-secrets-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "module: Wire\noutput: Generated\ndefaults:\n  baseURL: \(home.baseURL)\n".write(to: folder.appendingPathComponent("workspace.yaml"), atomically: true, encoding: .utf8)
        try "apis:\n  GetMe: { method: GET, path: /me, response: JSON }\n".write(to: folder.appendingPathComponent("wire.yaml"), atomically: true, encoding: .utf8)
        let workspace = folder.appendingPathComponent("workspace.yaml").path
        let headers = folder.appendingPathComponent("headers")
        try "# staging\nAuthorization: Bearer from-file\n\nX-Tenant: 7\n".write(to: headers, atomically: true, encoding: .utf8)

        let fromFile = try await runTool(tool, ["-w", workspace, "-q", "--header-file", headers.path])
        #expect(fromFile.status == 0, "\(fromFile.errors)")
        let fromEnvironment = try await runTool(tool, ["-w", workspace, "-q", "--header-env", "Authorization=STAGING_AUTH"], environment: ["STAGING_AUTH": "Bearer from-env"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.errors)")
        #expect(home.requests.map { "\($0.headers[.authorization] ?? "-") \($0.headers[HTTPField.Name("X-Tenant")!] ?? "-")" } == [
            "Bearer from-file 7", "Bearer from-env -",
        ])

        // CRLF lines and a byte-order mark, as an editor on Windows writes them.
        try "\u{FEFF}# staging\r\nAuthorization: Bearer crlf\r\nX-Tenant: 8\r\n".write(to: headers, atomically: true, encoding: .utf8)
        let crlf = try await runTool(tool, ["-w", workspace, "-q", "--header-file", headers.path])
        #expect(crlf.status == 0, "\(crlf.errors)")
        #expect(home.requests.last.map { "\($0.headers[.authorization] ?? "-") \($0.headers[HTTPField.Name("X-Tenant")!] ?? "-")" } == "Bearer crlf 8")

        try "Authorization: Bearer ok\nhunter2\n".write(to: headers, atomically: true, encoding: .utf8)
        let badLine = try await runTool(tool, ["-w", workspace, "--header-file", headers.path])
        #expect(badLine.status == 1)
        #expect(badLine.errors == "error: line 2 of \(headers.path) is not 'Name: value'\n")
        // A secret's line without its name is named by its number, never shown.
        try "s3cr3t token: value\n".write(to: headers, atomically: true, encoding: .utf8)
        let spaced = try await runTool(tool, ["-w", workspace, "--header-file", headers.path])
        #expect(spaced.status == 1)
        #expect(!spaced.errors.contains("s3cr3t"), "\(spaced.errors)")
        let unset = try await runTool(tool, ["-w", workspace, "--header-env", "Authorization=APIGEN_NO_SUCH_VARIABLE"])
        #expect(unset.status == 1)
        #expect(unset.errors.contains("the environment has no variable 'APIGEN_NO_SUCH_VARIABLE', or it is empty"))
        let empty = try await runTool(tool, ["-w", workspace, "--header-env", "Authorization=STAGING_AUTH"], environment: ["STAGING_AUTH": ""])
        #expect(empty.status == 1)
        let noName = try await runTool(tool, ["-w", workspace, "--header-env", "=STAGING_AUTH"], environment: ["STAGING_AUTH": "x"])
        #expect(noName.status == 1)
        #expect(noName.errors.contains("'' is not a header name"))
        #expect(home.requests.count == 3)
    }

    static func describe(_ api: String, baseURL: String) throws -> WorkspaceDescription {
        try ScratchWorkspace.describe(api, baseURL: baseURL)
    }

    @Test("Examples go as the generated initializer sends them: a model's defaults filled in, a Unix date in a body as its whole seconds, null left out, a Decimal with every digit")
    func valuesAsTheClientSendsThem() async throws {
        let server = try await LoopbackServer.start { _ in .json(#"{"jsonrpc":"2.0","id":1,"result":1}"#) }
        let workspace = try Self.describe("""
            types:
              Line:
                fields:
                  description: String
                  quantity: { type: Int, default: 1 }
            apis:
              Rpc:
                kind: jsonrpc
                url: /rpc
                method: order
                safe: true
                parameters:
                  line: { type: Line, example: { description: x } }
                  at: { type: "Date?", format: unixSeconds, example: 1700000000.75 }
                  note: { type: "String?", example: null }
                response: Int
              Dec:
                method: GET
                path: /dec
                parameters:
                  amount: { type: Decimal, example: 0.1234567890123456789 }
                  price: { type: Decimal, default: "1234567890.123456789" }
                  big: { type: Decimal, example: 12345678901234567890 }
                  skipped: { type: "String?", example: null }
                response: JSON
            """, baseURL: server.baseURL)
        let report = await ContractCheck(workspace: workspace, options: .init(timeout: 10)).run()
        #expect(report.entries.allSatisfy { $0.skipped == nil }, "\(report.entries)")
        #expect(server.requests.first?.bodyText == #"{"jsonrpc":"2.0","method":"order","params":{"at":1700000000,"line":{"description":"x","quantity":1}},"id":1}"#)
        #expect(server.requests.last?.target == "/dec?amount=0.1234567890123456789&price=1234567890.123456789&big=12345678901234567890")
    }

    @Test("--header follows the app's token once --base-url has moved the workspace: not to the production origin left unmoved, and to a third party moved onto the workspace's server")
    func headerScopeUnderOverrides() async throws {
        let real = try await LoopbackServer.start { _ in .json("{}") }
        let local = try await LoopbackServer.start { _ in .json("{}") }
        let workspace = try Self.describe("""
            apis:
              GetMe: { method: GET, path: /me, response: JSON }
              GetV2: { method: GET, path: /v2me, baseURL: "\(real.baseURL)/v2", response: JSON }
              GetMaps: { method: GET, path: /maps, baseURL: "https://maps.example.com", response: JSON }
            """, baseURL: real.baseURL + "/v1")
        let overrides = [real.baseURL + "/v1": local.baseURL + "/v1", "https://maps.example.com": local.baseURL + "/maps"]
        let report = await ContractCheck(workspace: workspace, options: .init(baseURLOverrides: overrides, headers: [Self.bearer], timeout: 10)).run()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.diagnostic))")
        #expect(real.requests.map { "\($0.path) \($0.headers[.authorization] ?? "-")" } == ["/v2/v2me -"])
        #expect(local.requests.map { "\($0.path) \($0.headers[.authorization] ?? "-")" } == ["/v1/me Bearer secret", "/maps/maps Bearer secret"])
    }

    @Test("What the runtime refuses is the client's refusal, not the server's error; a gRPC target that does not answer is a failed call")
    func refusalsAndUnreachableTargets() async throws {
        let looping = try await LoopbackServer.start { request in Response(status: .found, headers: [.location: request.path]) }
        let html = try await LoopbackServer.start { _ in Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html>hi</html>"))) }
        let workspace = try Self.describe("""
            apis:
              RpcLoop: { kind: jsonrpc, url: /rpc, method: loop, safe: true, response: Int }
              RpcHTML: { kind: jsonrpc, url: /rpc, baseURL: "\(html.baseURL)", method: page, safe: true, response: Int }
            """, baseURL: looping.baseURL)
        let report = await ContractCheck(workspace: workspace, options: .init(timeout: 10)).run()
        let found = report.entries.map { "\($0.api) \($0.findings.map { "\($0.kind.rawValue): \($0.message)" })" }
        #expect(found == [
            #"RpcLoop ["invalidReply: the generated client refuses the reply: more than 5 redirects"]"#,
            #"RpcHTML ["invalidReply: the generated client refuses the reply: the reply is not JSON (15 bytes)"]"#,
        ])

        var diagnostics = Diagnostics()
        let (_, example) = try #require(Generator.describe(workspaceFile: "apis/workspace.yaml", into: &diagnostics))
        let unreachable = await ContractCheck(workspace: example, options: .init(grpcURL: "grpc://127.0.0.1:1", timeout: 5, apis: ["SayHello"])).run()
        #expect(unreachable.entries.first?.grpcStatus == "UNAVAILABLE")
        #expect(unreachable.findings.map(\.kind) == [.callFailed])
        #expect(unreachable.findings.first?.message.hasPrefix("no reply from POST grpc://127.0.0.1:1/helloworld.Greeter/SayHello: the call ended UNAVAILABLE") == true, "\(unreachable.findings)")
    }

    @Test("A header name that is no header name is a usage error before any call")
    func badHeaderNames() async throws {
        let tool = URL(fileURLWithPath: ".build/debug/apigen-verify")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "run 'swift build --product apigen-verify' first")
        let spaced = try await runTool(tool, ["--header", "Bad Name: x"])
        #expect(spaced.status == 64)
        #expect(spaced.errors.contains("--header 'Bad Name' is not a header name"))
        let empty = try await runTool(tool, ["--header", ": x"])
        #expect(empty.status == 64)
    }
}
