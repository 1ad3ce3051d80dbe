@testable import APIGRPC
import APIRuntime
import APITestSupport
import Foundation
import GRPCCore
import HTTPTypes
import Testing
import WireTestSupport

/// How a gRPC method is defined once, and how grpc-swift's codes and metadata map to the runtime's.
@Suite("gRPC mapping")
struct GRPCMappingTests {
    @Test("A gRPC definition is its method's: POST on /package.Service/Method, grpc-swift's transport and descriptor made once")
    func definitionFromMethod() throws {
        let method = GRPCMethod(service: "routeguide.RouteGuide", method: "ListFeatures", shape: .serverStreaming)
        let definition = APIDefinition(name: "ListFeatures", wire: .grpc(method), timeout: .seconds(5), defaults: APIDefaults(baseURL: "grpc://localhost:1"))
        #expect(definition.path == "/routeguide.RouteGuide/ListFeatures")
        #expect(definition.method == .post && definition.kind == .grpc)
        #expect(method.service == "routeguide.RouteGuide" && method.name == "ListFeatures")
        #expect(method.shape.serverStreams && !method.shape.clientStreams && !method.isIdempotent)
        #expect(method.defaultTransport?.name == "grpc")
        let descriptor = try #require(method.descriptor as? MethodDescriptor)
        #expect(descriptor.fullyQualifiedMethod == "routeguide.RouteGuide/ListFeatures")
    }

    @Test("Every grpc-swift code maps to the runtime's code of the same number and name", arguments: [
        RPCError.Code.cancelled, .unknown, .invalidArgument, .deadlineExceeded, .notFound, .alreadyExists,
        .permissionDenied, .resourceExhausted, .failedPrecondition, .aborted, .outOfRange, .unimplemented,
        .internalError, .unavailable, .dataLoss, .unauthenticated,
    ])
    func statusCodes(code: RPCError.Code) {
        let mapped = GRPCStatusCode(code)
        #expect(mapped.rawValue == code.rawValue)
        // grpc-swift names codes in camel case (`deadlineExceeded`), the specification in capitals.
        let specificationName = String(describing: code).reduce(into: "") { name, character in
            if character.isUppercase { name += "_" }
            name += character.uppercased()
        }
        #expect(mapped.description == (specificationName == "INTERNAL_ERROR" ? "INTERNAL" : specificationName))
    }

    @Test("Header fields become metadata, a -bin field as bytes; fields the transport writes itself are left out")
    func metadataFromFields() throws {
        let fields: HTTPFields = [
            HTTPField.Name("x-user")!: "7",
            HTTPField.Name("trace-bin")!: Data([0, 1, 255]).base64EncodedString().replacingOccurrences(of: "=", with: ""),
            .contentType: "application/json",
            HTTPField.Name("grpc-timeout")!: "1S",
            .userAgent: "mine",
        ]
        let metadata = GRPCMetadata.metadata(from: fields)
        #expect(Array(metadata[stringValues: "x-user"]) == ["7"])
        #expect(Array(metadata[binaryValues: "trace-bin"]) == [[0, 1, 255]])
        #expect(metadata.count == 2)
        let back = GRPCMetadata.fields(from: metadata)
        #expect(back[HTTPField.Name("x-user")!] == "7")
        #expect(back[HTTPField.Name("trace-bin")!] == Data([0, 1, 255]).base64EncodedString())
    }
}
