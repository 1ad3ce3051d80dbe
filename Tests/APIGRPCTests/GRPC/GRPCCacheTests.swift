import APIGRPC
import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import SwiftProtobuf
import Testing
import WireTestSupport

/// A unary gRPC method cached by the same manifest key as REST and JSON-RPC, against a real
/// grpc-swift server.
@Suite("The response cache on a gRPC server")
struct GRPCCacheTests {
    /// `SayHello` (which its proto declares free of side effects) with `cache`.
    static func sayHello(_ name: String, safe: Bool = true, cache: CacheSettings = CacheSettings(ttl: 60)) -> BaseAPI<Helloworld_HelloReply> {
        let generated = SayHelloAPI.definition
        let definition = APIDefinition(
            name: generated.name, wire: generated.wire, baseURL: generated.baseURL, headers: generated.headers,
            timeout: generated.timeout, safe: safe, cache: cache, defaults: generated.defaults
        )
        var request = Helloworld_HelloRequest()
        request.name = name
        return BaseAPI(definition: definition, response: .protobuf, request: RequestBuilder().message(request))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A fresh reply answers again with its metadata and nothing sent; another request is another call; an unmarked method is never cached")
    func unary() async throws {
        let clock = ManualClock()
        try await withGRPCServer(configure: { $0.clock = clock }) { server, manager in
            let first = try await Self.sayHello("Ada").using(manager).startWithMetadata()
            clock.advance(by: .seconds(5))
            let second = try await Self.sayHello("Ada").using(manager).startWithMetadata()
            #expect(first.value.message == "Hello Ada" && second.value.message == "Hello Ada")
            #expect(!first.source.isFromCache && second.source.isFromCache)
            #expect(second.headerFields[HTTPField.Name("echo-x-client")!] == "ExampleClient/1.0")
            #expect(second.trailerFields[HTTPField.Name("x-trailer")!] == "done")
            #expect(server.calls.withLockedValue { $0 } == ["SayHello:Ada"])

            _ = try await Self.sayHello("Grace").using(manager).start()
            #expect(server.calls.withLockedValue { $0 } == ["SayHello:Ada", "SayHello:Grace"])

            clock.advance(by: .seconds(60))
            _ = try await Self.sayHello("Ada").using(manager).start()
            #expect(server.calls.withLockedValue { $0.count } == 3)

            for _ in 0..<2 { _ = try await Self.sayHello("Ada", safe: false).using(manager).start() }
            #expect(server.calls.withLockedValue { $0.count } == 5)
        }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("staleIfError: UNAVAILABLE is answered from the cache")
    func staleIfError() async throws {
        let clock = ManualClock()
        try await withGRPCServer(configure: { $0.clock = clock }) { server, manager in
            let cache = CacheSettings(ttl: 10, staleIfError: 600)
            #expect(try await Self.sayHello("Ada", cache: cache).using(manager).start().message == "Hello Ada")
            server.unavailable.withLockedValue { $0 = ["Ada"] }
            clock.advance(by: .seconds(30))
            let stale = try await Self.sayHello("Ada", cache: cache).using(manager).startWithMetadata()
            #expect(stale.value.message == "Hello Ada")
            guard case .stale(_, .error(let cause)) = stale.source, cause.reason.name == "grpc_status" else {
                Issue.record("expected a stale reply after UNAVAILABLE, got \(stale.source)")
                return
            }
            // Past the window, the error.
            clock.advance(by: .seconds(600))
            let failure = await expectAPIError { try await Self.sayHello("Ada", cache: cache).using(manager).start() }
            #expect(failure?.reason == APIError.Reason.grpcStatus(code: .unavailable, message: "down"))
            #expect(server.calls.withLockedValue { $0.count } == 3)
        }
    }
}
