import APIRuntime
@testable import APIGRPC
import Foundation
import GRPCCore
import HTTPTypes
import Testing

/// How the gRPC transport reads a request's URL and a reply's trailers.
@Suite("gRPC mapping")
struct GRPCMappingTests {
    @Test("The URL's path names the service and the method; empty segments aside, anything but two names is no method", arguments: [
        ("grpc://h:1/helloworld.Greeter/SayHello", "helloworld.Greeter", "SayHello"),
        ("grpc://h:1//geo.Router//ListFeatures/", "geo.Router", "ListFeatures"),
        ("grpc://h:1/a%20b.S/M", "a b.S", "M"),
        ("grpc://h:1/helloworld.Greeter", nil, nil),
        ("grpc://h:1/a/b/c", nil, nil),
        ("grpc://h:1/", nil, nil),
    ] as [(String, String?, String?)])
    func methodDescriptor(url: String, service: String?, method: String?) throws {
        let descriptor = GRPCTransport.descriptor(for: try #require(URL(string: url)))
        #expect(descriptor?.service.fullyQualifiedService == service)
        #expect(descriptor?.method == method)
    }

    @Test("The status is the first grpc-status trailer; none, or one that is not a number, is nil")
    func statusFromTrailers() {
        func status(_ values: [String]) -> GRPCStatusCode? {
            var trailers = HTTPFields()
            for value in values { trailers.append(HTTPField(name: HTTPField.Name("grpc-status")!, value: value)) }
            return APIResponse(status: .ok, headerFields: [:], body: Data(), trailerFields: trailers).grpcStatus
        }
        #expect(status(["14"]) == .unavailable)
        #expect(status(["0", "14"]) == .ok)
        #expect(status([]) == nil)
        #expect(status(["OK"]) == nil)
    }
}
