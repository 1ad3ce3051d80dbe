import APIGenCommands
import APIGenKit
import APIGenVerify
import APIManifest
import ArgumentParser
import Foundation

/// `apigen verify`: a contract check of the workspace against a live server. A tool of its own,
/// so that neither `apigen` nor the build plugins link an HTTP client.
@main
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apigen-verify",
        abstract: "Call every API that is safe to call and check its reply against the manifests.",
        discussion: """
            Safe APIs are REST GET and HEAD, JSON-RPC methods marked 'safe: true', and unary gRPC \
            methods their proto marks 'idempotency_level = NO_SIDE_EFFECTS'. Each call is the \
            generated client's, built and sent by the runtime: REST and JSON-RPC calls send \
            their parameters' 'example:' values; gRPC calls send the API's 'example:' request, \
            or an empty one. Replies that do not decode, fields the \
            manifests lack, enum values they do not list, required fields missing and statuses not \
            declared are reported at their manifest line. Exits 1 when a reply differs.
            """,
        version: APIGenVersion.current
    )

    @OptionGroup var workspace: WorkspaceOptions

    @Option(
        name: .customLong("base-url"),
        help: "The server to check, in place of the workspace's base URLs; or BASE=SERVER, the server for one base URL or gRPC target (repeatable)."
    )
    var baseURLs: [String] = []

    @Option(name: .customLong("grpc-url"), help: "The gRPC server to check, grpc://host:port (grpcs:// for TLS), in place of the workspace's targets.")
    var grpcURL: String?

    @Option(name: .customLong("api"), help: "Check only this API (its manifest name); repeatable.")
    var apis: [String] = []

    @Option(
        name: .customLong("header"),
        help: "A header for the calls that carry the app's credentials, 'Name: value': to the workspace's origin and APIs marked 'authenticated: true'; repeatable."
    )
    var headers: [String] = []

    @Option(
        name: .customLong("header-file"),
        help: "A file of such headers, one 'Name: value' a line (blank lines and lines starting with # are skipped): a secret kept out of the command line."
    )
    var headerFile: String?

    @Option(
        name: .customLong("header-env"),
        help: "NAME=VARIABLE: the header NAME with the value of the environment variable VARIABLE, for such calls; repeatable."
    )
    var headerVariables: [String] = []

    @Option(help: "Seconds each call may take, from its start to the last byte of its reply; at most a day.")
    var timeout = 30.0

    @Flag(help: "Print the report as JSON on standard output, for CI.")
    var json = false

    func validate() throws {
        for entry in baseURLs {
            let server = entry.split(separator: "=", maxSplits: 1).last.map(String.init) ?? entry
            guard let url = URL(string: server), ["http", "https", "grpc", "grpcs"].contains(url.scheme), url.host != nil else {
                throw ValidationError("--base-url takes an absolute URL, or BASE=SERVER; found '\(entry)'")
            }
        }
        guard baseURLs.count(where: { !$0.contains("=") }) <= 1 else {
            throw ValidationError("--base-url without '=' replaces every base URL, so it is given once; name others as BASE=SERVER")
        }
        if let grpcURL {
            guard let url = URL(string: grpcURL), ["grpc", "grpcs"].contains(url.scheme), url.host != nil, url.port != nil else {
                throw ValidationError("--grpc-url must be grpc://host:port or grpcs://host:port; found '\(grpcURL)'")
            }
        }
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else { throw ValidationError("--header is 'Name: value'; found '\(header)'") }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            guard ContractCheck.isHeaderName(name) else { throw ValidationError("--header '\(name)' is not a header name") }
        }
        for entry in headerVariables where !entry.contains("=") {
            throw ValidationError("--header-env is NAME=VARIABLE; found '\(entry)'")
        }
        guard timeout > 0, timeout <= ContractCheck.Options.longestTimeout else {
            throw ValidationError("--timeout must be more than 0 seconds and at most \(Int(ContractCheck.Options.longestTimeout)) (a day); found \(timeout)")
        }
    }

    func run() async throws {
        let description = try workspace.describe()
        let extraHeaders = try credentialHeaders()
        let unknown = apis.filter { name in !description.apis.contains { $0.manifestName == name } }
        guard unknown.isEmpty else {
            Console.error("error: --api names no API of the workspace: \(unknown.joined(separator: ", "))")
            throw ExitCode.failure
        }
        var overrides: [String: String] = [:]
        for entry in baseURLs where entry.contains("=") {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            overrides[parts[0]] = parts[1]
        }
        let options = ContractCheck.Options(
            baseURL: baseURLs.first { !$0.contains("=") }, baseURLOverrides: overrides, grpcURL: grpcURL,
            headers: extraHeaders, timeout: timeout, apis: apis.isEmpty ? nil : Set(apis)
        )
        let check = ContractCheck(workspace: description, options: options)
        let quiet = workspace.quiet
        let json = json
        let report = await check.run { entry in
            guard !json else { return }
            for finding in entry.findings { Console.error(finding.diagnostic) }
            if let reason = entry.skipped, !quiet { Console.error("note: \(entry.api) is not called: \(reason)") }
        }
        if json {
            Console.output(String(decoding: report.json, as: UTF8.self))
        } else if !quiet || !report.findings.isEmpty {
            Console.error(report.summary)
        }
        if !report.findings.isEmpty { throw ExitCode.failure }
    }

    /// `--header`, then `--header-file`'s lines, then `--header-env`'s variables.
    func credentialHeaders() throws -> [HeaderDescription] {
        func header(_ line: String, from source: String) throws -> HeaderDescription {
            guard let colon = line.firstIndex(of: ":") else {
                // The line is not echoed: it may be a secret without its name.
                Console.error("error: \(source) is not 'Name: value'")
                throw ExitCode.failure
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard ContractCheck.isHeaderName(name) else {
                Console.error("error: \(source) is not 'Name: value': what comes before its ':' is not a header name")
                throw ExitCode.failure
            }
            return HeaderDescription(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var result = try headers.map { try header($0, from: "--header") }
        if let headerFile {
            let text: String
            do {
                text = try String(contentsOfFile: headerFile, encoding: .utf8)
            } catch {
                Console.error("error: --header-file \(headerFile) cannot be read: \(error.localizedDescription)")
                throw ExitCode.failure
            }
            // Lines end in LF or CRLF (one Character to Swift); a byte-order mark is no header's.
            let lines = text.trimmingPrefix("\u{FEFF}").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                result.append(try header(trimmed, from: "line \(index + 1) of \(headerFile)"))
            }
        }
        for entry in headerVariables {
            let equals = entry.firstIndex(of: "=")!
            let (name, variable) = (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
            guard ContractCheck.isHeaderName(name) else {
                Console.error("error: --header-env \(entry): '\(name)' is not a header name")
                throw ExitCode.failure
            }
            guard !variable.isEmpty else {
                Console.error("error: --header-env \(entry) names no variable: write NAME=VARIABLE")
                throw ExitCode.failure
            }
            // An empty value is what CI gives for a secret it does not have: not a header to send.
            guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else {
                Console.error("error: --header-env \(entry): the environment has no variable '\(variable)', or it is empty")
                throw ExitCode.failure
            }
            result.append(HeaderDescription(name: name, value: value))
        }
        return result
    }
}
