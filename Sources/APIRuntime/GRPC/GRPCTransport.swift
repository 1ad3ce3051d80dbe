import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import HTTPTypes

/// The transport of a `grpc://` or `grpcs://` session: one grpc-swift client per target, its
/// HTTP/2 connection reused by every call to that target, shut down gracefully (calls in flight,
/// streams included, finish first) when the session cache lets it go.
///
/// It speaks in serialized messages; generated APIs encode requests and decode replies. A reply
/// comes back as it is on the wire: initial metadata as header fields, trailing metadata with
/// `grpc-status` and `grpc-message` as trailer fields (`GRPCProtocol` turns a non-OK status into
/// an `APIError`). Only the call's own deadline and cancellation become errors here.
@available(gRPCSwift 2.0, *)
final class GRPCTransport: HTTPTransport {
    private let client: GRPCClient<HTTP2ClientTransport.Posix>
    private let connections: Task<Void, Never>
    private let maxMessageBytes: Int

    init(key: SessionKey, configuration: APIManager.Configuration) throws {
        let transport = try HTTP2ClientTransport.Posix(
            target: .dns(host: key.host, port: key.port),
            transportSecurity: key.scheme == "grpcs" ? .tls : .plaintext
        )
        let client = GRPCClient(transport: transport)
        self.client = client
        self.maxMessageBytes = configuration.maxResponseBytes
        // runConnections returns once a graceful shutdown has let the last call finish.
        self.connections = Task { try? await client.runConnections() }
    }

    func shutdown() async {
        client.beginGracefulShutdown()
        await connections.value
    }

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        guard let descriptor = Self.descriptor(for: request.url) else {
            throw APIError(api: request.api, reason: .invalidRequest(message: "'\(request.url.path)' is not a gRPC method path (/package.Service/Method)"))
        }
        var options = CallOptions.defaults
        options.timeout = request.timeout
        options.maxResponseMessageBytes = maxMessageBytes
        options.maxRequestMessageBytes = maxMessageBytes
        let outgoing = StreamingClientRequest<Data>(metadata: GRPCMetadata.metadata(from: request.headerFields), producer: Self.producer(for: request))
        do {
            if request.streamsResponse {
                return try await openStream(outgoing, descriptor: descriptor, options: options, request: request)
            }
            let response = try await client.clientStreaming(
                request: outgoing, descriptor: descriptor,
                serializer: BytesSerializer(), deserializer: BytesDeserializer(), options: options
            ) { response in try Self.reply(response, to: request) }
            return response
        } catch {
            throw Self.apiError(error, for: request)
        }
    }

    // MARK: Streams

    /// Starts a call whose reply is a stream, and returns once its head (initial metadata, or a
    /// trailers-only refusal) has arrived. The messages follow through `APIResponse.messages`;
    /// the call runs in a task of its own, which the reader cancels by cancelling the stream.
    private func openStream(
        _ outgoing: StreamingClientRequest<Data>, descriptor: MethodDescriptor, options: CallOptions, request: APIRequest
    ) async throws -> APIResponse {
        let messages = ResponseMessages()
        let head = OnceResult<APIResponse>()
        let deadline = ContinuousClock.now + request.timeout
        let call = Task { [client] in
            do {
                try await client.bidirectionalStreaming(
                    request: outgoing, descriptor: descriptor,
                    serializer: BytesSerializer(), deserializer: BytesDeserializer(), options: options
                ) { response in
                    switch response.accepted {
                    case .failure(let error):
                        head.resolve(Result { try Self.refusal(error, to: request) })
                    case .success(let contents):
                        head.resolve(.success(APIResponse(status: .ok, headerFields: GRPCMetadata.fields(from: contents.metadata), messages: messages)))
                        try await Self.pump(contents.bodyParts, into: messages, request: request, deadline: deadline)
                    }
                }
            } catch {
                head.resolve(.failure(error))
                if messages.trailers == nil {
                    messages.fail(Self.apiError(error, for: request), trailers: [:])
                }
            }
        }
        messages.onCancel { call.cancel() }
        return try await withTaskCancellationHandler {
            try await head.value
        } onCancel: {
            call.cancel()
        }
    }

    /// Hands the messages to the reader one by one (each `send` waits for the reader), then the
    /// trailers; a non-OK status ends the stream with an error naming the API.
    private static func pump(
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
                    trailers = GRPCMetadata.trailers(metadata, status: .ok)
                }
            }
            messages.finish(trailers: trailers)
        } catch {
            // grpc-swift enforces the deadline by cancelling the call, which surfaces as a
            // cancellation, DEADLINE_EXCEEDED or, on a slow machine, an UNKNOWN transport error.
            // Only the reader cancels otherwise: an end the reader did not ask for, once the
            // deadline has passed, is the deadline's.
            let timedOut = !messages.isCancelled && ContinuousClock.now >= deadline
            if let error = error as? RPCError {
                let status = GRPCStatusCode(rawValue: error.code.rawValue)
                trailers = GRPCMetadata.trailers(error.metadata, status: status, message: error.message)
            }
            messages.fail(timedOut ? StreamDeadlinePassed() : apiError(error, for: request), trailers: trailers)
        }
    }

    // MARK: Mapping

    /// `/package.Service/Method` as grpc-swift names it.
    static func descriptor(for url: URL) -> MethodDescriptor? {
        let parts = url.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        return MethodDescriptor(fullyQualifiedService: String(parts[0]), method: String(parts[1]))
    }

    private static func producer(for request: APIRequest) -> @Sendable (RPCWriter<Data>) async throws -> Void {
        if let produce = request.messageProducer {
            return { writer in try await produce(MessageSink { try await writer.write($0) }) }
        }
        let body = request.body ?? Data()
        return { writer in try await writer.write(body) }
    }

    /// A single-message reply as an `APIResponse`; its status goes into the trailers.
    private static func reply(_ response: ClientResponse<Data>, to request: APIRequest) throws -> APIResponse {
        switch response.accepted {
        case .failure(let error):
            return try refusal(error, to: request)
        case .success(let contents):
            let headers = GRPCMetadata.fields(from: contents.metadata)
            switch contents.message {
            case .success(let body):
                return APIResponse(status: .ok, headerFields: headers, body: body, trailerFields: GRPCMetadata.trailers(contents.trailingMetadata, status: .ok))
            case .failure(let error):
                var refused = try refusal(error, to: request)
                refused.headerFields = headers
                return refused
            }
        }
    }

    /// A call the server (or the client library) ended with a status: a reply with trailers only.
    /// The call's own deadline and cancellation are errors instead, as for every other transport.
    private static func refusal(_ error: RPCError, to request: APIRequest) throws -> APIResponse {
        if let ownEnd = ownEnd(error, for: request) { throw ownEnd }
        let status = GRPCStatusCode(rawValue: error.code.rawValue)
        return APIResponse(status: .ok, trailerFields: GRPCMetadata.trailers(error.metadata, status: status, message: error.message))
    }

    /// The call's own deadline passing, or the call being cancelled: errors, as for every other
    /// transport, rather than a status the server sent.
    private static func ownEnd(_ error: RPCError, for request: APIRequest) -> APIError? {
        switch error.code {
        case .deadlineExceeded: APIError(api: request.api, reason: .timeout(request.timeout), underlying: error)
        case .cancelled where Task.isCancelled: APIError(api: request.api, reason: .cancelled, underlying: error)
        default: nil
        }
    }

    static func apiError(_ error: any Error, for request: APIRequest) -> APIError {
        if let error = error as? APIError { return error }
        if Task.isCancelled || error is CancellationError {
            return APIError(api: request.api, reason: .cancelled, underlying: error)
        }
        if let error = error as? RPCError {
            return ownEnd(error, for: request)
                ?? APIError(api: request.api, reason: .grpcStatus(code: GRPCStatusCode(rawValue: error.code.rawValue), message: error.message), underlying: error)
        }
        return APIError(api: request.api, reason: .transport(message: "\(error)"), underlying: error)
    }
}

/// The gRPC transport for `key`, or one that explains why there is none.
func makeGRPCTransport(_ key: SessionKey, configuration: APIManager.Configuration) -> any HTTPTransport {
    guard #available(gRPCSwift 2.0, *) else {
        return FailingTransport(message: "gRPC needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2")
    }
    do {
        return try GRPCTransport(key: key, configuration: configuration)
    } catch {
        return FailingTransport(message: "cannot reach \(key): \(error)")
    }
}

/// A session that cannot exist; each call fails with the reason.
struct FailingTransport: HTTPTransport {
    let message: String

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        throw APIError(api: request.api, reason: .transport(message: message))
    }

    func shutdown() async {}
}
