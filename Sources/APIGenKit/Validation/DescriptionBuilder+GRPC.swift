import APIWireFormat
import APIManifest
import Foundation

/// gRPC APIs: the method each names, looked up in its file's compiled protos.
extension DescriptionBuilder {
    /// `service: package.Service` stands for one API per method of the service, each named after
    /// its method; every other API stands for itself.
    func expandingService(_ api: APIDeclaration, in file: APIFileManifest) -> [APIDeclaration] {
        guard api.kind.value == .grpc, let service = api.grpc?.service,
              let methods = protos[file.file]?.services[service.value] else { return [api] }
        return methods.compactMap { fullName in
            guard let method = protos[file.file]?.methods[fullName] else { return nil }
            var single = api
            single.name = Located(method.name, at: api.name.location)
            single.grpc?.rpc = Located(fullName, at: service.location)
            single.grpc?.service = nil
            // A service's `example:` is an error reported once, by `describeAPIs`.
            single.example = nil
            return single
        }
    }

    struct DescribedGRPC {
        var grpc: GRPCDescription
        var baseURL: String
        var metadata: [HeaderDescription]
        var deadline: Double?
    }

    mutating func describeGRPC(_ api: APIDeclaration, _ endpoint: GRPCEndpoint, file: String) -> DescribedGRPC? {
        guard let settings = workspace.files.first(where: { $0.file == file })?.grpc else { return nil }
        let catalog = protos[file] ?? ProtoCatalog()
        if let service = endpoint.service {
            // Reached only when the service is unknown: known ones were expanded into methods.
            diagnostics.error("service '\(service.value)' is not in the protos of this file\(Suggestion.hint(for: service.value, in: catalog.services.keys))", at: service.location)
            return nil
        }
        guard let rpc = endpoint.rpc else { return nil }
        guard let method = catalog.methods[rpc.value] else {
            let hint = rpc.value.contains("/")
                ? Suggestion.hint(for: rpc.value, in: catalog.methods.keys)
                : "; name it as 'package.Service/Method'" + Suggestion.hint(for: rpc.value, in: catalog.methods.keys)
            diagnostics.error("rpc '\(rpc.value)' is not in the protos of this file (\(settings.protos.map(\.value).joined(separator: ", ")))\(hint)", at: rpc.location)
            return nil
        }
        // The file's settings were checked once, by `checkGRPCSettings`.
        guard let target = settings.target, let baseURL = Self.grpcBaseURL(target.value, tls: settings.tls?.value ?? true) else { return nil }
        if let frequency = api.frequency, frequency.value != .allow, method.clientStreams || method.serverStreams {
            diagnostics.warning("frequency '\(frequency.value.rawValue)' does not apply to streaming calls, which are always allowed: a request stream cannot be compared, and a reply stream has one reader", at: frequency.location)
        }
        endpoint.metadata.forEach { checkMetadata($0) }
        let metadata = settings.metadata + endpoint.metadata
        var grpc = GRPCDescription(
            method: method.fullName, requestType: method.requestType, responseType: method.responseType,
            clientStreams: method.clientStreams, serverStreams: method.serverStreams, isIdempotent: method.isIdempotent
        )
        grpc.hasNoSideEffects = method.hasNoSideEffects
        grpc.requestMessage = method.requestMessage
        grpc.responseMessage = method.responseMessage
        if let example = api.example, let value = JSONValue.parse(Data(example.value.utf8)) {
            do {
                grpc.exampleRequest = try ProtobufWriter(shapes: catalog.shapes).encode(value, as: method.requestMessage)
            } catch {
                diagnostics.error("the example of '\(api.name.value)' is not a '\(method.requestMessage)': \(error)", at: example.location)
            }
        }
        return DescribedGRPC(
            grpc: grpc,
            baseURL: baseURL,
            // gRPC metadata keys are lowercase on the wire; a later entry replaces an earlier one.
            metadata: headers(metadata).map { HeaderDescription(name: $0.name.lowercased(), value: $0.value) },
            deadline: settings.deadline?.value
        )
    }

    /// The proto's comment on a gRPC API's method, for its doc comment when the manifest has none.
    func protoComment(for api: APIDeclaration, file: String) -> [String] {
        guard let rpc = api.grpc?.rpc else { return [] }
        return protos[file]?.methods[rpc.value]?.commentLines ?? []
    }

    /// The `grpc:` block of every API file, once: its target and its metadata.
    mutating func checkGRPCSettings() {
        for file in workspace.files {
            guard let settings = file.grpc else { continue }
            if let target = settings.target {
                if Self.grpcBaseURL(target.value, tls: true) == nil {
                    diagnostics.error("target '\(target.value)' must be host:port, such as 'api.example.com:443' or '127.0.0.1:50051'", at: target.location)
                }
            } else {
                diagnostics.error("'grpc:' needs 'target:', the server as host:port", at: settings.location)
            }
            settings.metadata.forEach { checkMetadata($0) }
        }
    }

    /// `host:port` → `grpc://host:port` (plaintext) or `grpcs://host:port` (TLS); nil if it is not host:port.
    static func grpcBaseURL(_ text: String, tls: Bool) -> String? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port),
              !text[..<colon].isEmpty, !text.contains("/"), URL(string: "grpc://\(text)")?.host != nil else { return nil }
        return (tls ? "grpcs://" : "grpc://") + text
    }

    /// Metadata keys are header names, and gRPC reserves some of them for itself.
    private mutating func checkMetadata(_ header: Header) {
        checkHeader(header)
        let name = header.name.value.lowercased()
        if name.hasPrefix("grpc-") || ["content-type", "te", "user-agent", "host"].contains(name) {
            diagnostics.error("metadata key '\(header.name.value)' is reserved by gRPC", at: header.name.location)
        }
        if name.hasSuffix("-bin"), Data(base64Encoded: header.value.value) == nil {
            diagnostics.error("the value of binary metadata '\(header.name.value)' must be base64", at: header.value.location)
        }
    }
}
