import APIWireFormat
import APIManifest
import Foundation

/// Checks every kind shares: names, URLs, headers, the output folder, file names.
extension DescriptionBuilder {
    @discardableResult
    mutating func checkTypeName(_ swiftName: String, at location: SourceLocation) -> Bool {
        if SwiftIdentifier.reservedTypeNames.contains(swiftName) || SwiftIdentifier.keywords.contains(swiftName) {
            diagnostics.error("'\(swiftName)' is a name generated code relies on; choose another", at: location)
            return false
        }
        return true
    }

    @discardableResult
    mutating func checkIdentifier(_ name: Located<String>, what: String) -> Bool {
        guard SwiftIdentifier.isValid(name.value) else {
            diagnostics.error("\(what) '\(name.value)' is not a valid Swift identifier: use letters, digits and '_', starting with a letter", at: name.location)
            return false
        }
        return true
    }

    mutating func checkBaseURL(_ baseURL: Located<String>) {
        guard let url = URL(string: baseURL.value), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil, url.query == nil
        else {
            diagnostics.error("baseURL '\(baseURL.value)' must be an absolute http or https URL without a query", at: baseURL.location)
            return
        }
        if let problem = BaseURLProblem(baseURL.value) {
            // The URL is not repeated: it may hold a password or a line break.
            diagnostics.error("baseURL \(problem)", at: baseURL.location)
        }
    }

    /// Warns where the workspace's default base URL is clear text to another machine: the
    /// authentication interceptor refuses to send its token there (the calls that would carry
    /// it fail), but to APIs that say `authenticated: true`.
    mutating func warnIfClearTextDefault(_ baseURL: Located<String>) {
        guard let url = URL(string: baseURL.value), HostName.isCleartext(scheme: url.scheme, host: url.host) else { return }
        diagnostics.warning(
            "baseURL \(url.scheme ?? "")://\(url.host ?? "") is clear text to another machine: the authentication interceptor sends no token there (its calls fail) but to APIs that say 'authenticated: true'; use https",
            at: baseURL.location
        )
    }

    /// Warns where a manifest sends the authentication interceptor's token in clear text: an API
    /// that says `authenticated: true` and goes over plain `http` or plaintext gRPC to a host other
    /// than this machine (the runtime refuses that unless the manifest says so).
    mutating func warnIfTokenInClearText(_ authenticated: Located<Bool>?, baseURL: String?) {
        guard let authenticated, authenticated.value, let baseURL, let url = URL(string: baseURL),
              HostName.isCleartext(scheme: url.scheme, host: url.host)
        else { return }
        diagnostics.warning(
            "'authenticated: true' sends the token in clear text to \(url.scheme ?? "")://\(url.host ?? ""), which anyone on the way can read: use https (or 'tls: true' for gRPC)",
            at: authenticated.location
        )
    }

    /// apigen owns its output folder: it replaces the whole folder on every run. The folder must
    /// therefore be one of its own, never the workspace's folder or one holding it, nor a file.
    mutating func checkOutputFolder() {
        let output = workspace.outputDirectory.resolvingSymlinksInPath().path
        let manifests = workspace.directory.resolvingSymlinksInPath().path
        if output == "/" || manifests == output || manifests.hasPrefix(output.hasSuffix("/") ? output : output + "/") {
            diagnostics.error(
                "output '\(workspace.manifest.output.value)' holds the manifests themselves; apigen owns its output folder, so give it one of its own (such as ../Sources/Client/Generated)",
                at: workspace.manifest.output.location
            )
        }
        // A file there would be replaced by the folder, and with it what the file held.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            diagnostics.error(
                "output '\(workspace.manifest.output.value)' is a file, not a folder; apigen writes a folder of generated files, so give it a path of its own",
                at: workspace.manifest.output.location
            )
        }
    }

    /// Header names are HTTP tokens; values may not hold line breaks, which would split the header.
    mutating func checkHeader(_ header: Header) {
        checkHeaderName(header.name)
        checkNotFraming(header.name)
        if header.value.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            diagnostics.error("the value of header '\(header.name.value)' cannot contain line breaks or NUL", at: header.value.location)
        }
    }

    /// Headers that frame the message (`Content-Length`, `Transfer-Encoding`, `Host`, …) are the
    /// transport's to write: one a request also carries could make a proxy and a server read
    /// the message differently (request smuggling).
    static let framingHeaders: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "upgrade", "proxy-connection",
    ]

    mutating func checkNotFraming(_ name: Located<String>) {
        if Self.framingHeaders.contains(name.value.lowercased()) {
            diagnostics.error("'\(name.value)' frames the message, and the transport writes it from the request itself; a manifest cannot set it", at: name.location)
        }
    }

    mutating func checkHeaderName(_ name: Located<String>) {
        let separators = "!#$%&'*+-.^_`|~"
        let isToken = !name.value.isEmpty && name.value.unicodeScalars.allSatisfy {
            $0.isASCII && (($0.properties.isAlphabetic) || ("0"..."9").contains($0) || separators.unicodeScalars.contains($0))
        }
        if !isToken {
            diagnostics.error("'\(name.value)' is not a valid HTTP header name: use letters, digits and !#$%&'*+-.^_`|~", at: name.location)
        }
    }

    /// Two generated files may not share a name, even in different folders: the compiler wants
    /// a module's file names different, and its object files go in one folder. Nor may names
    /// differ only in case, which overwrite each other on macOS. `what` names what a file is
    /// generated for.
    mutating func checkFileNames(_ files: [(path: String, what: String, location: SourceLocation)]) {
        var seen: [String: (name: String, path: String, what: String, location: SourceLocation)] = [:]
        for file in files {
            let name = (file.path as NSString).lastPathComponent
            guard let other = seen.updateValue((name, file.path, file.what, file.location), forKey: name.lowercased()) else { continue }
            let clash = other.name == name
                ? "and \(other.path), the file of \(other.what) at \(other.location), has that name too: a module's files need different names"
                : "whose name differs only in case from \(other.path), the file of \(other.what) at \(other.location); case-insensitive file systems would keep one"
            diagnostics.error("\(file.what) would generate \(file.path), \(clash)", at: file.location)
        }
    }

    func headers(_ headers: [Header]) -> [HeaderDescription] {
        headers.map { HeaderDescription(name: $0.name.value, value: $0.value.value) }
    }

    func columnShifted(_ value: Located<String>, by offset: Int) -> SourceLocation {
        var location = value.location
        if !value.value.contains("\n") { location.column += offset }
        return location
    }
}
