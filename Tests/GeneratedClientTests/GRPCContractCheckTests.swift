import APIWireFormat
import APIGenKit
import APIGenVerify
import APIManifest
import ExampleClient
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Testing
import WireTestSupport

/// `apigen verify` of the example workspace's unary gRPC methods without side effects
/// (`GetFeature`, `SayHello`): against grpc-swift serving the protos, and against a server whose
/// reply carries what the proto does not declare.
@Suite("apigen verify of gRPC methods")
struct GRPCContractCheckTests {
    static let methods: Set<String> = ["GetFeature", "SayHello", "ListFeatures", "RecordRoute"]

    static func example() throws -> WorkspaceDescription {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: "apis/workspace.yaml", into: &diagnostics)
        return try #require(described, "\(diagnostics.sorted)").1
    }

    static func check(grpcURL: String) async throws -> ContractReport {
        await ContractCheck(workspace: try example(), options: .init(grpcURL: grpcURL, timeout: 10, apis: methods)).run()
    }

    @Test("An example in proto's JSON encodes to the bytes the generated messages serialize to; a wrong one fails at its path")
    func exampleEncoding() throws {
        let writer = ProtobufWriter(shapes: try Self.example().protoShapes)
        let json = #"{"location": {"latitude": 5, "longitude": -7}, "message": "hi", "sent_at": {"seconds": "1700000000", "nanos": 5}}"#
        let bytes = try writer.encode(try #require(JSONValue.parse(Data(json.utf8))), as: "routeguide.RouteNote")
        let note = try Routeguide_RouteNote(serializedBytes: bytes)
        #expect(note.location.latitude == 5 && note.location.longitude == -7 && note.message == "hi")
        #expect(note.sentAt.seconds == 1_700_000_000 && note.sentAt.nanos == 5)

        // The bytes SwiftProtobuf serializes the same message to: fields by number, defaults
        // without presence left out, repeated numbers packed.
        #expect(bytes == Array(try note.serializedData()))
        let rectangle = try writer.encode(try #require(JSONValue.parse(Data(#"{"lo": {"latitude": 1}, "hi": {"latitude": 2}}"#.utf8))), as: "geo.Rectangle")
        #expect(rectangle == Array(try Geo_Rectangle.with { $0.lo.latitude = 1; $0.hi.latitude = 2 }.serializedData()))
        #expect(rectangle == [10, 2, 8, 1, 18, 2, 8, 2])
        let defaults = try writer.encode(.object(["latitude": .integer(0), "longitude": .integer(5)]), as: "geo.Point")
        #expect(defaults == [16, 5])
        let details = try writer.encode(.object(["tags": .array([.string("a"), .string("")]), "description": .string("")]), as: "routeguide.Feature.Details")
        #expect(details == Array(try Routeguide_Feature.Details.with { $0.tags = ["a", ""] }.serializedData()))

        let unknown = #expect(throws: ProtobufWriter.Failure.self) {
            try writer.encode(.object(["location": .object(["altitude": .integer(1)])]), as: "routeguide.RouteNote")
        }
        #expect(unknown?.description == "$.location.altitude: 'geo.Point' has no field 'altitude'; its fields: latitude, longitude")
        let tooLarge = #expect(throws: ProtobufWriter.Failure.self) {
            try writer.encode(.object(["latitude": .integer(1 << 40)]), as: "geo.Point")
        }
        #expect(tooLarge?.description == "$.latitude: expected an integer from -2147483648 to 2147483647, found 1099511627776")
    }

    @Test("A server that serves the protos: SayHello called with its example, GetFeature with an empty request, the streaming ones named as not called")
    func matchingServer() async throws {
        let server = try await GRPCTestServer.start()
        let report = try await Self.check(grpcURL: server.baseURL)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.diagnostic))")
        #expect(report.entries.map(\.api) == ["SayHello", "GetFeature", "ListFeatures", "RecordRoute"])
        #expect(report.entries.map(\.grpcStatus) == ["OK", "OK", nil, nil])
        #expect(report.entries.compactMap(\.skipped) == ["it is a server-streaming call", "it is a client-streaming call"])
        #expect(server.calls.withLockedValue { $0 }.sorted() == ["GetFeature", "SayHello:World"])
    }

    @Test("A reply with a field the proto lacks, a field of the wrong wire type, and a method the server does not have")
    func driftingServer() async throws {
        // Feature: name (1) "x"; location (2) as a varint instead of a message; field 9, not in the proto.
        let reply: [UInt8] = [0x0A, 0x01, 0x78, 0x10, 0x05, 0x48, 0x01]
        let transport = HTTP2ServerTransport.Posix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext)
        let server = GRPCServer(transport: transport, services: [RawGetFeature(reply: reply)])
        let serving = Task { try await server.serve() }
        let port = try #require(try await transport.listeningAddress.ipv4?.port)
        let report = try await Self.check(grpcURL: "grpc://127.0.0.1:\(port)")
        server.beginGracefulShutdown()
        try await serving.value

        let lines = report.findings.map { "\($0.api) \($0.kind.rawValue) \($0.path ?? "-") \($0.breaksDecoding)" }
        #expect(lines == [
            "SayHello rpcError - true",
            "GetFeature typeMismatch $.location true",
            "GetFeature extraField $.#9 false",
        ])
        #expect(report.findings.first?.message.hasPrefix("the server answered UNIMPLEMENTED") == true, "\(report.findings.first?.message ?? "")")
        #expect(report.findings.allSatisfy { $0.file.hasSuffix(".yaml") })
    }
}

/// `routeguide.RouteGuide/GetFeature` answering `reply`'s bytes, whatever they are.
private struct RawGetFeature: RegistrableRPCService {
    let reply: [UInt8]

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let reply = self.reply
        router.registerHandler(
            forMethod: MethodDescriptor(fullyQualifiedService: "routeguide.RouteGuide", method: "GetFeature"),
            deserializer: Raw(), serializer: Raw()
        ) { _, _ in
            StreamingServerResponse(single: ServerResponse(message: reply))
        }
    }

    private struct Raw: MessageSerializer, MessageDeserializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
        func deserialize<Bytes: GRPCContiguousBytes>(_ bytes: Bytes) throws -> [UInt8] { bytes.withUnsafeBytes { Array($0) } }
    }
}
