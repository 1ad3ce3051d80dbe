import APINIOSSL
import APIRuntime
import Foundation
import GRPCCore
#if canImport(Network)
import GRPCNIOTransportHTTP2TransportServices
#else
import GRPCNIOTransportHTTP2Posix
#endif
import HTTPTypes
import NIOSSL

/// The transport of a `grpc://` or `grpcs://` session: one grpc-swift client per target, its
/// HTTP/2 connection reused by every call to that target, shut down gracefully (calls in flight,
/// streams included, finish first) when the session cache lets it go.
///
/// Each call is the grpc-swift call of its method's shape (unary, server-, client- or
/// bidirectional streaming) on the method's descriptor, with the request's header fields as its
/// metadata and the time left before the call's deadline as its timeout. Messages travel
/// serialized: generated APIs encode requests and decode replies with SwiftProtobuf, so that
/// interceptors see gRPC calls as bytes, as they see every other call. A reply carries the initial
/// metadata as header fields, the trailing metadata as trailer fields and the status the server
/// ended the call with (`ReplyStatus.grpc`; `GRPCProtocol` turns a status other than OK into an
/// `APIError`), never an HTTP status. Only the call's own
/// deadline and cancellation, and a failed TLS handshake, become errors here.
@available(gRPCSwift 2.0, *)
final class GRPCTransport<Wire: ClientTransport>: CallTransport where Wire.Bytes == GRPCNIOTransportBytes {
    private let client: GRPCClient<Wire>
    private let connections: Task<Void, Never>
    private let maxMessageBytes: Int
    /// The host of the session, named in TLS failures.
    private let host: String
    /// Whether the session is `grpcs://`.
    private let usesTLS: Bool
    /// What checked the server's certificate chain, when the session pins; it knows why a
    /// handshake it failed failed.
    private let verifier: ChainVerifier?
    /// The manager's clock, which the call's deadline is on.
    private let clock: any APIClock

    init(_ wire: Wire, host: String, usesTLS: Bool, verifier: ChainVerifier? = nil, configuration: APIManager.Configuration) {
        let client = GRPCClient(transport: wire)
        self.client = client
        self.host = host
        self.usesTLS = usesTLS
        self.verifier = verifier
        self.maxMessageBytes = configuration.maxResponseBytes
        self.clock = configuration.clock
        // runConnections returns once a graceful shutdown has let the last call finish.
        self.connections = Task { try? await client.runConnections() }
    }

    func shutdown() async {
        client.beginGracefulShutdown()
        await connections.value
    }

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        guard let method = request.grpcMethod else {
            throw APIError(api: request.api, reason: .invalidRequest(message: "the definition names no gRPC service and method"))
        }
        let descriptor = method.descriptor as? MethodDescriptor ?? MethodDescriptor(fullyQualifiedService: method.service, method: method.name)
        let deadline = request.deadline
        let options = callOptions(until: deadline)
        let metadata = GRPCMetadata.metadata(from: request.headerFields)
        let client = self.client
        do {
            switch method.shape {
            case .unary:
                return try await client.unary(
                    request: ClientRequest(message: request.body ?? Data(), metadata: metadata), descriptor: descriptor,
                    serializer: BytesSerializer(), deserializer: BytesDeserializer(), options: options
                ) { response in try self.reply(response, to: request, deadline: deadline) }
            case .clientStreaming:
                return try await client.clientStreaming(
                    request: StreamingClientRequest(metadata: metadata, producer: Self.producer(for: request)), descriptor: descriptor,
                    serializer: BytesSerializer(), deserializer: BytesDeserializer(), options: options
                ) { response in try self.reply(response, to: request, deadline: deadline) }
            case .serverStreaming:
                return try await openStream(request: request, deadline: deadline) { onResponse in
                    try await client.serverStreaming(
                        request: ClientRequest(message: request.body ?? Data(), metadata: metadata), descriptor: descriptor,
                        serializer: BytesSerializer(), deserializer: BytesDeserializer(), options: options, onResponse: onResponse
                    )
                }
            case .bidirectionalStreaming:
                return try await openStream(request: request, deadline: deadline) { onResponse in
                    try await client.bidirectionalStreaming(
                        request: StreamingClientRequest(metadata: metadata, producer: Self.producer(for: request)), descriptor: descriptor,
                        serializer: BytesSerializer(), deserializer: BytesDeserializer(), options: options, onResponse: onResponse
                    )
                }
            }
        } catch {
            throw self.apiError(error, for: request, deadline: deadline, callerCancelled: Task.isCancelled)
        }
    }

    /// The call's timeout is the time left before its deadline, which grpc-swift passes on to the
    /// server (`grpc-timeout`).
    private func callOptions(until deadline: ContinuousClock.Instant) -> CallOptions {
        var options = CallOptions.defaults
        options.timeout = max(.zero, deadline - clock.now)
        options.maxResponseMessageBytes = maxMessageBytes
        options.maxRequestMessageBytes = maxMessageBytes
        return options
    }

    // MARK: Streams

    /// Starts a call whose reply is a stream, and returns once its head (initial metadata, or a
    /// trailers-only refusal) has arrived. The messages follow through the response's stream; the
    /// call runs in a task of its own, which the reader cancels by cancelling the stream.
    private func openStream(
        request: APIRequest, deadline: ContinuousClock.Instant,
        call makeCall: @escaping @Sendable (
            _ onResponse: @escaping @Sendable (StreamingClientResponse<Data>) async throws -> Void
        ) async throws -> Void
    ) async throws -> APIResponse {
        let messages = ResponseMessages(callTimeout: request.timeout)
        let head = OnceResult<APIResponse>()
        let call = Task {
            do {
                try await makeCall { response in
                    switch response.accepted {
                    case .failure(let error):
                        head.resolve(Result { try self.refusal(error, to: request, deadline: deadline, callerCancelled: messages.isCancelled) })
                    case .success(let contents):
                        var response = APIResponse(status: .grpcStream, headerFields: GRPCMetadata.fields(from: contents.metadata))
                        response.stream = messages
                        head.resolve(.success(response))
                        try await self.pump(contents.bodyParts, into: messages, request: request, deadline: deadline)
                    }
                }
            } catch {
                head.resolve(.failure(self.apiError(error, for: request, deadline: deadline, callerCancelled: messages.isCancelled)))
                if messages.trailers == nil {
                    messages.fail(self.streamError(error, for: request, deadline: deadline, messages: messages), trailers: [:])
                }
            }
        }
        // Every cancellation goes through `messages`, so that the call's end can tell the
        // caller's cancelling from grpc-swift's (which is how it enforces the deadline).
        messages.onCancel { call.cancel() }
        return try await withTaskCancellationHandler {
            try await head.value
        } onCancel: {
            messages.cancel()
        }
    }

    /// Hands the messages to the reader one by one (each `send` waits for the reader), then the
    /// trailers; a non-OK status ends the stream with an error naming the API.
    private func pump(
        _ parts: RPCAsyncSequence<StreamingClientResponse<Data>.Contents.BodyPart, any Error>,
        into messages: ResponseMessages, request: APIRequest, deadline: ContinuousClock.Instant
    ) async throws {
        var trailers = HTTPFields()
        do {
            for try await part in parts {
                switch part {
                case .message(let bytes):
                    await messages.channel.send(bytes)
                    if Task.isCancelled { throw CancellationError() }
                case .trailingMetadata(let metadata):
                    trailers = GRPCMetadata.fields(from: metadata)
                }
            }
            messages.finish(trailers: trailers)
        } catch {
            if let error = error as? RPCError {
                trailers = GRPCMetadata.fields(from: error.metadata)
            }
            messages.fail(streamError(error, for: request, deadline: deadline, messages: messages), trailers: trailers)
        }
    }

    /// What ends a stream's messages: a deadline that passed is `StreamDeadlinePassed` (the reader
    /// reports the call's whole time limit, which only the manager knows), anything else an
    /// `APIError` naming the API.
    private func streamError(
        _ error: any Error, for request: APIRequest, deadline: ContinuousClock.Instant, messages: ResponseMessages
    ) -> any Error {
        let ended = self.apiError(error, for: request, deadline: deadline, callerCancelled: messages.isCancelled)
        return ended.reason == .timeout(request.timeout) ? StreamDeadlinePassed() : ended
    }

    // MARK: Mapping

    private static func producer(for request: APIRequest) -> @Sendable (RPCWriter<Data>) async throws -> Void {
        if let produce = request.messageProducer {
            return { writer in try await produce(MessageSink { try await writer.write($0) }) }
        }
        let body = request.body ?? Data()
        return { writer in try await writer.write(body) }
    }

    /// A single-message reply as an `APIResponse`; its status goes into the trailers. It runs in
    /// the calling task, so that task's cancellation is the caller's (a call cancelled before the
    /// server's head arrives ends here as UNKNOWN, not CANCELLED).
    private func reply(_ response: ClientResponse<Data>, to request: APIRequest, deadline: ContinuousClock.Instant) throws -> APIResponse {
        let callerCancelled = Task.isCancelled
        switch response.accepted {
        case .failure(let error):
            return try refusal(error, to: request, deadline: deadline, callerCancelled: callerCancelled)
        case .success(let contents):
            let headers = GRPCMetadata.fields(from: contents.metadata)
            switch contents.message {
            case .success(let body):
                return APIResponse(
                    status: .grpc(.ok, message: ""), headerFields: headers, body: body,
                    trailerFields: GRPCMetadata.fields(from: contents.trailingMetadata)
                )
            case .failure(let error):
                var refused = try refusal(error, to: request, deadline: deadline, callerCancelled: callerCancelled)
                refused.headerFields = headers
                return refused
            }
        }
    }

    /// A call the server (or the client library) ended with a status: a reply with trailers only.
    /// The call's own deadline and cancellation are errors instead, as for every other transport.
    private func refusal(
        _ error: RPCError, to request: APIRequest, deadline: ContinuousClock.Instant, callerCancelled: Bool
    ) throws -> APIResponse {
        if let end = ownEnd(error, for: request, deadline: deadline, callerCancelled: callerCancelled) { throw end }
        if let failure = tlsFailure(error) { throw APIError(api: request.api, reason: .tls(failure), underlying: error) }
        return APIResponse(status: .grpc(GRPCStatusCode(error.code), message: error.message), trailerFields: GRPCMetadata.fields(from: error.metadata))
    }

    /// The caller cancelling the call, or its deadline passing: errors, as for every other
    /// transport, rather than a status the server sent.
    ///
    /// grpc-swift enforces a deadline by cancelling the call's tasks, and what that looks like
    /// depends on where the call was: DEADLINE_EXCEEDED, CANCELLED, or UNKNOWN ("the transport
    /// threw an unexpected error") when the head had not arrived yet. So an end the caller did not
    /// ask for, once the deadline has passed, is the deadline's. Before it, a DEADLINE_EXCEEDED is
    /// the server's own (a deadline of its own ran out), a status like any other.
    private func ownEnd(
        _ error: any Error, for request: APIRequest, deadline: ContinuousClock.Instant, callerCancelled: Bool
    ) -> APIError? {
        if callerCancelled { return APIError(api: request.api, reason: .cancelled, underlying: error) }
        let code = (error as? RPCError)?.code
        if clock.now >= deadline {
            return APIError(api: request.api, reason: .timeout(request.timeout), underlying: error)
        }
        if code == .cancelled && Task.isCancelled || error is CancellationError {
            return APIError(api: request.api, reason: .cancelled, underlying: error)
        }
        return nil
    }

    func apiError(
        _ error: any Error, for request: APIRequest, deadline: ContinuousClock.Instant, callerCancelled: Bool
    ) -> APIError {
        if let error = error as? APIError { return error }
        if let end = ownEnd(error, for: request, deadline: deadline, callerCancelled: callerCancelled) { return end }
        if let failure = tlsFailure(error) { return APIError(api: request.api, reason: .tls(failure), underlying: error) }
        if let error = error as? RPCError {
            return APIError(api: request.api, reason: .grpcStatus(code: GRPCStatusCode(error.code), message: error.message), underlying: error)
        }
        return APIError(api: request.api, reason: .transport(message: "\(error)"), underlying: error)
    }

    /// A connection that failed its TLS handshake, which grpc-swift reports as UNAVAILABLE.
    private func tlsFailure(_ error: any Error) -> TLSFailure? {
        guard (error as? RPCError)?.code == .unavailable || !(error is RPCError) else { return nil }
        return clientCertificateRefusal(error) ?? TLSFailure(nioSSLError: error, host: host, verifier: verifier)
    }

    /// Under TLS 1.3 a server checks the client's certificate after the client has finished its
    /// handshake. One that refuses it, or wanted one and got none, may close the connection at
    /// once, unread data and all, and the reset loses its alert: grpcio's servers do. grpc-swift
    /// then reports a TLS connection closed without close_notify before the HTTP/2 connection
    /// preface, which a server that accepted the client begins with its SETTINGS frame.
    private func clientCertificateRefusal(_ error: any Error) -> TLSFailure? {
        guard usesTLS, let error = error as? RPCError, error.message.contains("connection preface"),
              case .uncleanShutdown? = error.cause as? NIOSSLError else { return nil }
        return TLSFailure(kind: .clientCertificateRefused, host: host, message: "the server closed the connection after the TLS handshake, before HTTP/2 began: it refused the client's certificate, or the lack of one")
    }
}

extension TransportFactory {
    /// grpc-swift 2's HTTP/2 transport, one client per target, for `grpc://` (plaintext) and
    /// `grpcs://` (TLS) base URLs: on Apple platforms over Network.framework
    /// (`HTTP2ClientTransport.TransportServices`, as grpc-swift recommends there), elsewhere over
    /// SwiftNIO's sockets (`HTTP2ClientTransport.Posix`). What gRPC APIs use unless the manager's
    /// configuration names a `grpcTransport`.
    public static var grpc: TransportFactory {
        TransportFactory(name: "grpc", schemes: ["grpc", "grpcs"]) { key, settings, configuration in
            guard #available(gRPCSwift 2.0, *) else { throw GRPCUnavailable() }
            #if canImport(Network)
            let wire = try HTTP2ClientTransport.TransportServices(
                target: Self.grpcTarget(key),
                transportSecurity: .session(key, settings: settings.tls)
            )
            return GRPCTransport(wire, host: key.host, usesTLS: key.scheme == "grpcs", configuration: configuration)
            #else
            let verifier = key.scheme == "grpcs" && !settings.tls.pins.isEmpty ? try ChainVerifier(settings: settings.tls, host: key.host) : nil
            let wire = try HTTP2ClientTransport.Posix(
                target: Self.grpcTarget(key),
                transportSecurity: .session(key, settings: settings.tls, verifier: verifier)
            )
            return GRPCTransport(wire, host: key.host, usesTLS: key.scheme == "grpcs", verifier: verifier, configuration: configuration)
            #endif
        }
    }
}

extension TransportFactory {
    /// A session's host as grpc-swift's target: an address as itself, so that it is not sent as
    /// the TLS server name (which names hosts, never addresses); a name to be resolved otherwise.
    @available(gRPCSwift 2.0, *)
    static func grpcTarget(_ key: SessionKey) -> any ResolvableTarget {
        guard let address = HostAddress(key.host) else { return .dns(host: key.host, port: key.port) }
        return address.isIPv6 ? .ipv6(address: address.text, port: key.port) : .ipv4(address: address.text, port: key.port)
    }
}

/// grpc-swift 2 needs newer Apple systems than the rest of the runtime.
struct GRPCUnavailable: Error, CustomStringConvertible {
    var description: String { "gRPC needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2" }
}
