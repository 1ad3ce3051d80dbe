import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import GRPCProtobuf
import NIOConcurrencyHelpers
import SwiftProtobuf

/// A real grpc-swift 2 server on an OS-chosen loopback port, speaking HTTP/2, serving the example
/// workspace's Greeter and RouteGuide. Its handlers are written by hand against grpc-swift's
/// router (no generated server stubs needed), with behaviours the tests select through the request:
///
/// - SayHello `name`: `fail:<code>:<message>` ends with that status; `slow:<ms>` answers late;
///   `flaky:<n>` is UNAVAILABLE for the first n calls, and a name in `unavailable` for as long
///   as it is there; `auth` wants `authorization: Bearer good`;
///   anything else is greeted, request metadata `x-*` echoed back as `echo-x-*` (initial) and
///   `x-trailer: done` sent as trailing metadata.
/// - ListFeatures: one feature per latitude from `lo` to `hi`; a `lo.longitude` of n milliseconds
///   paces them, a `hi.longitude` of n milliseconds holds the head (initial metadata) back that
///   long. Streams that end record how (`finished`, `cancelled`) in `streamEndings`.
///
/// Like the HTTP test servers, it runs until the test process ends.
@available(gRPCSwift 2.0, *)
public final class GRPCTestServer: Sendable {
    public let port: Int
    public let calls = NIOLockedValueBox<[String]>([])
    public let metadataSeen = NIOLockedValueBox<[Metadata]>([])
    public let streamEndings = NIOLockedValueBox<[String]>([])
    private let flaky = NIOLockedValueBox<[String: Int]>([:])
    /// SayHello names answered UNAVAILABLE while they are here: a server that goes down.
    public let unavailable = NIOLockedValueBox<Set<String>>([])

    /// The target string for instance `baseURL`s: `grpc://127.0.0.1:<port>`.
    public var baseURL: String { "grpc://127.0.0.1:\(port)" }

    /// Whether calls and their metadata are kept for the test to read; a soak keeps none, so
    /// that the server's memory does not grow with every call.
    private let recording: Bool

    private init(port: Int, recording: Bool) {
        self.port = port
        self.recording = recording
    }

    private func record(_ call: String) {
        if recording { calls.withLockedValue { $0.append(call) } }
    }

    /// A server over plaintext, or over `security` (TLS with certificates a test made).
    public static func start(security: HTTP2ServerTransport.Posix.TransportSecurity = .plaintext, recording: Bool = true) async throws -> GRPCTestServer {
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: 0),
            transportSecurity: security,
            config: .defaults { $0.rpc.maxRequestPayloadSize = 16 * 1024 * 1024 }
        )
        let box = NIOLockedValueBox<GRPCTestServer?>(nil)
        let service = Service { box.withLockedValue { $0! } }
        let server = GRPCServer(transport: transport, services: [service])
        Task { try? await server.serve() }
        guard let address = try await transport.listeningAddress.ipv4 else {
            throw RPCError(code: .internalError, message: "the test server has no IPv4 address")
        }
        let started = GRPCTestServer(port: address.port, recording: recording)
        box.withLockedValue { $0 = started }
        return started
    }

    // MARK: Handlers

    func sayHello(_ request: ServerRequest<Helloworld_HelloRequest>) async throws -> ServerResponse<Helloworld_HelloReply> {
        record("SayHello:\(request.message.name.prefix(40))")
        if recording { metadataSeen.withLockedValue { $0.append(request.metadata) } }
        let name = request.message.name
        if unavailable.withLockedValue({ $0.contains(name) }) { throw RPCError(code: .unavailable, message: "down") }
        let parts = name.split(separator: ":", maxSplits: 2).map(String.init)
        switch parts.first {
        case "fail":
            let code = RPCError.Code(Status.Code(rawValue: Int(parts[1])!)!)!
            throw RPCError(code: code, message: parts.count > 2 ? parts[2] : "", metadata: ["x-fail": "yes"])
        case "slow":
            try await Task.sleep(for: .milliseconds(Int(parts[1])!))
        case "flaky":
            let failuresLeft = flaky.withLockedValue { counts in
                let left = counts[name, default: Int(parts[1])!]
                counts[name] = left - 1
                return left
            }
            if failuresLeft > 0 { throw RPCError(code: .unavailable, message: "try again") }
        case "auth":
            let token = request.metadata[stringValues: "authorization"].first(where: { _ in true })
            if token != "Bearer good" { throw RPCError(code: .unauthenticated, message: "bad token \(token ?? "none")") }
        default:
            break
        }
        var echoed = Metadata()
        for (key, value) in request.metadata where key.hasPrefix("x-") {
            switch value {
            case .string(let text): echoed.addString(text, forKey: "echo-" + key)
            case .binary(let bytes): echoed.addBinary(bytes, forKey: "echo-" + key)
            }
        }
        var reply = Helloworld_HelloReply()
        reply.message = "Hello " + name
        return ServerResponse(message: reply, metadata: echoed, trailingMetadata: ["x-trailer": "done"])
    }

    func getFeature(_ request: ServerRequest<Geo_Point>) async throws -> ServerResponse<Routeguide_Feature> {
        record("GetFeature")
        return ServerResponse(message: Self.feature(at: request.message))
    }

    func listFeatures(_ request: ServerRequest<Geo_Rectangle>) async throws -> StreamingServerResponse<Routeguide_Feature> {
        record("ListFeatures")
        let area = request.message
        if area.hi.longitude > 0 { try await Task.sleep(for: .milliseconds(Int(area.hi.longitude))) }
        return StreamingServerResponse { writer in
            var ending = "cancelled"
            defer { if self.recording { self.streamEndings.withLockedValue { [ending] in $0.append(ending) } } }
            for latitude in area.lo.latitude..<area.hi.latitude {
                if area.lo.longitude > 0 { try await Task.sleep(for: .milliseconds(Int(area.lo.longitude))) }
                var point = Geo_Point()
                point.latitude = latitude
                try await writer.write(Self.feature(at: point))
            }
            ending = "finished"
            return ["x-count": "\(area.hi.latitude - area.lo.latitude)"]
        }
    }

    func recordRoute(_ request: StreamingServerRequest<Geo_Point>) async throws -> ServerResponse<Routeguide_RouteSummary> {
        record("RecordRoute")
        if let token = request.metadata[stringValues: "authorization"].first(where: { _ in true }), token != "Bearer good" {
            throw RPCError(code: .unauthenticated, message: "bad token \(token)")
        }
        var summary = Routeguide_RouteSummary()
        var previous: Geo_Point?
        for try await point in request.messages {
            summary.pointCount += 1
            if let previous { summary.distance += abs(point.latitude - previous.latitude) + abs(point.longitude - previous.longitude) }
            previous = point
        }
        summary.elapsedTime = .init(seconds: 1, nanos: 500_000_000)
        return ServerResponse(message: summary)
    }

    func routeChat(_ request: StreamingServerRequest<Routeguide_RouteNote>) -> StreamingServerResponse<Routeguide_RouteNote> {
        record("RouteChat")
        return StreamingServerResponse { writer in
            for try await note in request.messages {
                var answer = note
                answer.message = "echo: " + note.message
                answer.sentAt = Google_Protobuf_Timestamp(seconds: 1_700_000_000, nanos: 0)
                try await writer.write(answer)
            }
            return [:]
        }
    }

    public static func feature(at point: Geo_Point) -> Routeguide_Feature {
        var feature = Routeguide_Feature()
        feature.name = "feature \(point.latitude),\(point.longitude)"
        feature.location = point
        feature.details.description_p = "at \(point.latitude)"
        feature.details.tags = ["a", "b"]
        return feature
    }

    /// Registers the handlers with grpc-swift's router, (de)serializing with SwiftProtobuf.
    struct Service: RegistrableRPCService {
        let server: @Sendable () -> GRPCTestServer

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            let server = self.server
            router.registerHandler(
                forMethod: MethodDescriptor(fullyQualifiedService: "helloworld.Greeter", method: "SayHello"),
                deserializer: ProtobufDeserializer<Helloworld_HelloRequest>(), serializer: ProtobufSerializer<Helloworld_HelloReply>()
            ) { request, _ in
                StreamingServerResponse(single: try await server().sayHello(ServerRequest(stream: request)))
            }
            router.registerHandler(
                forMethod: MethodDescriptor(fullyQualifiedService: "routeguide.RouteGuide", method: "GetFeature"),
                deserializer: ProtobufDeserializer<Geo_Point>(), serializer: ProtobufSerializer<Routeguide_Feature>()
            ) { request, _ in
                StreamingServerResponse(single: try await server().getFeature(ServerRequest(stream: request)))
            }
            router.registerHandler(
                forMethod: MethodDescriptor(fullyQualifiedService: "routeguide.RouteGuide", method: "ListFeatures"),
                deserializer: ProtobufDeserializer<Geo_Rectangle>(), serializer: ProtobufSerializer<Routeguide_Feature>()
            ) { request, _ in
                try await server().listFeatures(ServerRequest(stream: request))
            }
            router.registerHandler(
                forMethod: MethodDescriptor(fullyQualifiedService: "routeguide.RouteGuide", method: "RecordRoute"),
                deserializer: ProtobufDeserializer<Geo_Point>(), serializer: ProtobufSerializer<Routeguide_RouteSummary>()
            ) { request, _ in
                StreamingServerResponse(single: try await server().recordRoute(request))
            }
            router.registerHandler(
                forMethod: MethodDescriptor(fullyQualifiedService: "routeguide.RouteGuide", method: "RouteChat"),
                deserializer: ProtobufDeserializer<Routeguide_RouteNote>(), serializer: ProtobufSerializer<Routeguide_RouteNote>()
            ) { request, _ in
                server().routeChat(request)
            }
        }
    }
}

/// Runs `body` with a real grpc-swift server on loopback (HTTP/2) and a manager whose example
/// gRPC targets point at it. The manager is shut down afterwards; the server keeps running.
@available(gRPCSwift 2.0, *)
public func withGRPCServer<T>(
    configure: (inout APIManager.Configuration) -> Void = { _ in },
    body: (GRPCTestServer, APIManager) async throws -> T
) async throws -> T {
    let server = try await GRPCTestServer.start()
    var configuration = APIManager.Configuration()
    configuration.baseURLOverrides = ["grpc://localhost:50051": server.baseURL, "grpc://localhost:50052": server.baseURL]
    configure(&configuration)
    return try await withManager(configuration) { manager in try await body(server, manager) }
}

public func point(_ latitude: Int32, _ longitude: Int32 = 0) -> Geo_Point {
    var point = Geo_Point()
    point.latitude = latitude
    point.longitude = longitude
    return point
}

public func rectangle(from lo: Int32, to hi: Int32, pacing milliseconds: Int32 = 0, headAfter headDelay: Int32 = 0) -> Geo_Rectangle {
    var area = Geo_Rectangle()
    area.lo = point(lo, milliseconds)
    area.hi = point(hi, headDelay)
    return area
}
