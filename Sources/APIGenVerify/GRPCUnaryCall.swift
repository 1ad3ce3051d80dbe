import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix

/// One unary gRPC call whose messages travel as bytes, read against the proto by
/// `ProtobufReader` rather than by generated messages, which the check does not have.
public struct GRPCUnaryCall: Sendable {
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    /// `package.Service`, and the method's name.
    public var service: String
    public var method: String
    public var message: [UInt8]
    public var metadata: [(name: String, value: String)]
    public var timeout: Double

    /// `grpc://host:port` or `grpcs://host:port`; nil for anything else.
    init?(baseURL: String, fullMethod: String, message: [UInt8] = [], metadata: [(name: String, value: String)], timeout: Double) {
        guard let url = URL(string: baseURL), let scheme = url.scheme, ["grpc", "grpcs"].contains(scheme), let host = url.host, let port = url.port,
              let slash = fullMethod.lastIndex(of: "/")
        else { return nil }
        self.host = host
        self.port = port
        usesTLS = scheme == "grpcs"
        service = String(fullMethod[..<slash])
        method = String(fullMethod[fullMethod.index(after: slash)...])
        self.message = message
        self.metadata = metadata
        self.timeout = timeout
    }

    /// `grpc://host:port/package.Service/Method`, for the report.
    public var description: String { "\(usesTLS ? "grpcs" : "grpc")://\(host):\(port)/\(service)/\(method)" }

    /// The reply: the status's code and message, and the message's bytes when the status is OK.
    public struct Reply: Sendable {
        public var code: String
        public var statusMessage: String
        public var message: [UInt8]?
    }

    @available(gRPCSwift 2.0, *)
    public func send() async throws -> Reply {
        let transport = try HTTP2ClientTransport.Posix(
            target: .dns(host: host, port: port),
            transportSecurity: usesTLS ? .tls : .plaintext
        )
        var metadata = Metadata()
        for entry in self.metadata { metadata.addString(entry.value, forKey: entry.name) }
        var options = CallOptions.defaults
        options.timeout = .milliseconds(Int64(timeout * 1000))
        let request = ClientRequest(message: message, metadata: metadata)
        let descriptor = MethodDescriptor(fullyQualifiedService: service, method: method)
        return try await withGRPCClient(transport: transport) { client in
            try await client.unary(
                request: request, descriptor: descriptor, serializer: RawBytes(), deserializer: RawBytes(), options: options
            ) { response in
                switch response.accepted {
                case .success(let contents):
                    Reply(code: "ok", statusMessage: "", message: try contents.message.get())
                case .failure(let error):
                    Reply(code: "\(error.code)", statusMessage: error.message, message: nil)
                }
            }
        }
    }
}

/// Messages as the bytes they are.
@available(gRPCSwift 2.0, *)
private struct RawBytes: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes {
        Bytes(message)
    }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
