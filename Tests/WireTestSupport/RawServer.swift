import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that answers every connection with the same bytes, written as
/// given, then closes it: for replies no HTTP server library would send (a body shorter than its
/// `Content-Length`, say).
public final class RawServer: Sendable {
    public let port: Int
    /// Kept so that the listening socket lives as long as the server object.
    private let channel: any Channel

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    public static func start(reply: String) async throws -> RawServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ReplyHandler(reply: reply))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return RawServer(port: channel.localAddress?.port ?? 0, channel: channel)
    }

    /// Closes the listening socket: later connections are refused, as by a server that is down.
    public func stop() async {
        try? await channel.close()
    }

    /// Writes the reply once the request's first bytes arrive, then closes the connection.
    private final class ReplyHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let reply: String
        var replied = false

        init(reply: String) {
            self.reply = reply
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !replied else { return }
            replied = true
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: reply))).whenComplete { _ in
                bound.value.close(promise: nil)
            }
        }
    }
}
