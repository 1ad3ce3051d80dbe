import APIRuntime
import Foundation
import GRPCCore
import HTTPTypes

/// gRPC metadata are HTTP/2 header fields: a `-bin` key carries bytes, base64-encoded on the wire.
@available(gRPCSwift 2.0, *)
enum GRPCMetadata {
    /// Fields gRPC's transport writes itself: sending them as metadata would corrupt the call.
    static let reserved: Set<String> = ["content-type", "te", "user-agent", "host", "connection", "keep-alive", "transfer-encoding", "upgrade"]

    static func metadata(from fields: HTTPFields) -> Metadata {
        var metadata = Metadata()
        for field in fields {
            let name = field.name.canonicalName
            guard !reserved.contains(name), !name.hasPrefix("grpc-"), !name.hasPrefix(":") else { continue }
            if name.hasSuffix("-bin"), let bytes = Data(base64Encoded: padded(field.value)) {
                metadata.addBinary(Array(bytes), forKey: name)
            } else {
                metadata.addString(field.value, forKey: name)
            }
        }
        return metadata
    }

    static func fields(from metadata: Metadata) -> HTTPFields {
        var fields = HTTPFields()
        for (key, value) in metadata {
            guard let name = HTTPField.Name(key) else { continue }
            switch value {
            case .string(let text): fields.append(HTTPField(name: name, value: text))
            case .binary(let bytes): fields.append(HTTPField(name: name, value: Data(bytes).base64EncodedString()))
            }
        }
        return fields
    }

    /// Base64 without its `=` padding is allowed in `-bin` values.
    private static func padded(_ text: String) -> String {
        let remainder = text.utf8.count % 4
        return remainder == 0 ? text : text + String(repeating: "=", count: 4 - remainder)
    }
}

@available(gRPCSwift 2.0, *)
extension GRPCStatusCode {
    /// grpc-swift's status code as the runtime's: the same numbers, named once here.
    init(_ code: RPCError.Code) {
        self.init(rawValue: code.rawValue)
    }
}

/// Messages travel through the transport serialized: generated APIs encode and decode them.
@available(gRPCSwift 2.0, *)
struct BytesSerializer: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: Data) throws -> Bytes {
        Bytes(message)
    }
}

@available(gRPCSwift 2.0, *)
struct BytesDeserializer: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Data {
        serializedMessageBytes.withUnsafeBytes { Data($0) }
    }
}

@available(gRPCSwift 2.0, *)
extension APIReply {
    /// A gRPC reply's initial metadata, as grpc-swift's `Metadata`: `-bin` values as bytes.
    public var metadata: Metadata { GRPCMetadata.metadata(from: headerFields) }

    /// A gRPC reply's trailing metadata, as grpc-swift's `Metadata`.
    public var trailingMetadata: Metadata { GRPCMetadata.metadata(from: trailerFields) }
}
