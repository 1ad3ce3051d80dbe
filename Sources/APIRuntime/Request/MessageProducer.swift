import Foundation

/// Writes the serialized request messages of a client-streaming call, one at a time. The manager
/// hands one to a call's producer; `write` waits while the transport cannot take more (HTTP/2
/// flow control), so a fast producer never piles messages up in memory.
public struct MessageSink: Sendable {
    let writeBytes: @Sendable (Data) async throws -> Void

    /// A sink that hands each message's bytes to `write`.
    public init(_ write: @escaping @Sendable (Data) async throws -> Void) {
        self.writeBytes = write
    }

    /// Sends one serialized message; waits while the transport cannot take more.
    public func write(_ message: Data) async throws {
        try await writeBytes(message)
    }
}

/// The request side of a client- or bidirectional-streaming call: a closure that writes messages
/// and returns when it has no more (returning ends the request stream).
public typealias MessageProducer = @Sendable (MessageSink) async throws -> Void
