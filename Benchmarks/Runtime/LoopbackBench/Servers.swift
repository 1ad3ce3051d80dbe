import BenchClient
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import GRPCProtobuf
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix

/// The servers both sides of every comparison call, run in a child process (`LoopbackBench serve`)
/// so that the parent's CPU time is the clients' alone. Answers are as cheap as they can be made:
/// the benchmark is about the client side.
enum Servers {
    /// Starts both servers, prints `http=<port> grpc=<port>`, and returns when stdin closes (the
    /// parent exiting closes it).
    static func serve() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let http = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(HTTPHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()

        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: 0),
            transportSecurity: .plaintext,
            eventLoopGroup: group
        )
        let grpc = GRPCServer(transport: transport, services: [Greeter()])
        let serving = Task { try await grpc.serve() }
        guard let grpcAddress = try await transport.listeningAddress.ipv4 else {
            throw RPCError(code: .internalError, message: "the gRPC server has no IPv4 address")
        }
        // Unbuffered: the parent waits for this line.
        FileHandle.standardOutput.write(Data("http=\(http.localAddress!.port!) grpc=\(grpcAddress.port)\n".utf8))

        // Nothing to tidy: the process ends here, sockets and threads with it.
        while readLine() != nil {}
        _ = (http, grpc, serving)
    }
}

/// GET /items/{id} answers the item; POST /items answers the posted item with an id;
/// POST /rpc answers JSON-RPC 2.0 `add` calls, one or a batch.
final class HTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            guard let head else { return }
            self.head = nil
            let (status, reply) = Self.answer(head, body: body)
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(reply.readableBytes))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(reply))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    static func answer(_ head: HTTPRequestHead, body: ByteBuffer) -> (HTTPResponseStatus, ByteBuffer) {
        let path = head.uri.split(separator: "?", maxSplits: 1)[0]
        switch (head.method, path) {
        case (.GET, _) where path.hasPrefix("/items/"):
            let id = Int(path.dropFirst("/items/".count)) ?? 0
            return (.ok, ByteBuffer(string: #"{"id":\#(id),"name":"Widget","price":9.5,"tags":["a","b"]}"#))
        case (.POST, "/items"):
            // The posted object with an id in front: `{"id":1,` and the body after its `{`.
            var reply = ByteBuffer(string: #"{"id":1,"#)
            reply.writeBytes(body.readableBytesView.dropFirst())
            return (.ok, reply)
        case (.POST, "/rpc"):
            return (.ok, jsonRPC(body))
        default:
            return (.notFound, ByteBuffer(string: #"{"error":"not found"}"#))
        }
    }

    /// `add` with two positional integers; a batch answers each call in order.
    static func jsonRPC(_ body: ByteBuffer) -> ByteBuffer {
        func answer(_ call: Any) -> [String: Any] {
            let call = call as? [String: Any] ?? [:]
            let params = call["params"] as? [Int] ?? []
            return ["jsonrpc": "2.0", "id": call["id"] ?? NSNull(), "result": params.reduce(0, +)]
        }
        let request = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
        let reply: Any = (request as? [Any]).map { $0.map(answer) } ?? answer(request ?? [:])
        return ByteBuffer(data: (try? JSONSerialization.data(withJSONObject: reply)) ?? Data())
    }
}

/// helloworld.Greeter, registered by hand on grpc-swift's router (no generated server stubs).
struct Greeter: RegistrableRPCService {
    static let sayHello = MethodDescriptor(fullyQualifiedService: "helloworld.Greeter", method: "SayHello")

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: Self.sayHello,
            deserializer: ProtobufDeserializer<Helloworld_HelloRequest>(),
            serializer: ProtobufSerializer<Helloworld_HelloReply>()
        ) { request, _ in
            let hello = try await ServerRequest(stream: request)
            var reply = Helloworld_HelloReply()
            reply.message = "Hello, " + hello.message.name
            return StreamingServerResponse(single: ServerResponse(message: reply))
        }
    }
}
