import APIWireFormat
import Foundation
import HTTPTypes
import Logging

/// Logs every call through swift-log: the request as it leaves, the outcome as it returns.
/// Secrets never reach the log: the values of headers, gRPC metadata, query items, form fields
/// and JSON members whose names `secrets` holds (`Authorization`, `X-API-Key`, `?token=`,
/// `access_token`, `password`, … by default) are written as `<redacted>`, and so are
/// `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization` whatever `secrets` says, a
/// JSON-RPC call's string parameters passed by position, and any value shaped as a token (a JWT).
public struct LoggingInterceptor: APIInterceptor {
    /// Where the lines go: each request and each 2xx reply at `.debug`, other statuses and errors
    /// at `.notice`.
    public var logger: Logger
    /// The names whose values are redacted in logged headers, metadata, URLs and bodies.
    public var secrets: SecretNames
    /// Whether the request's and the reply's bodies go into the lines' metadata, with secret JSON
    /// fields redacted; off unless asked for.
    public var logsBodies: Bool

    /// `secretHeaders` and `secretFields` add names to `secrets`.
    public init(
        logger: Logger, secrets: SecretNames = .standard,
        secretHeaders: Set<String> = [], secretFields: Set<String> = [], logsBodies: Bool = false
    ) {
        self.logger = logger
        var secrets = secrets
        secrets.names.formUnion((secretHeaders.union(secretFields)).map { $0.lowercased() })
        self.secrets = secrets
        self.logsBodies = logsBodies
    }

    /// `logging`, as a manifest names it in `skipInterceptors:`.
    public var name: String { "logging" }

    /// Logs the request, passes it on, and logs the response or the error with the call's duration.
    public func intercept(
        _ request: APIRequest,
        context: APICallContext,
        next: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        var metadata: Logger.Metadata = [
            "api": "\(request.api)",
            "kind": "\(context.kind)",
            "attempt": "\(context.attempt)",
            "headers": .dictionary(redacted(request.headerFields)),
        ]
        if logsBodies, let body = request.body { metadata["body"] = "\(redacted(body, contentType: request.headerFields[.contentType], kind: context.kind))" }
        if logsBodies, let streamed = request.streamedBody {
            // Its bytes are read once, by the transport; the log says how many there are.
            metadata["body"] = if case .known(let count) = streamed.length { "(\(count) bytes, streamed)" } else { "(streamed)" }
        }
        logger.debug("→ \(request.method.rawValue) \(request.url.map { redacted($0, template: context.definition.pathTemplate) } ?? "")", metadata: metadata)

        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next()
            var result: Logger.Metadata = [
                "api": "\(request.api)",
                "status": "\(response.statusSummary)",
                "duration": "\(clock.now - start)",
                "headers": .dictionary(redacted(response.headerFields)),
            ]
            if logsBodies { result["body"] = "\(redacted(response.body, contentType: response.headerFields[.contentType], kind: context.kind))" }
            logger.log(level: response.isSuccess ? .debug : .notice, "← \(response.statusSummary) \(request.api)", metadata: result)
            return response
        } catch {
            logger.notice("✗ \(request.api): \(error.reason)", metadata: ["api": "\(request.api)", "duration": "\(clock.now - start)"])
            throw error
        }
    }

    /// Logs what the cache did for a call, at `.debug`: `cache hit GetUser (age 12 s)`.
    public func observe(_ event: CacheEvent, context: APICallContext) {
        logger.debug("⚑ cache \(event.name) \(context.definition.name)\(event.details)", metadata: ["api": "\(context.definition.name)", "cache": "\(event.name)"])
    }

    func redacted(_ fields: HTTPFields) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        for field in secrets.redacted(fields) { metadata[field.name.rawName] = .string(field.value) }
        return metadata
    }

    func redacted(_ url: URL, template: PathTemplate? = nil) -> String {
        secrets.redacted(url, template: template)
    }

    /// A JSON or form body with its secrets redacted (`SecretNames.redacted(body:contentType:)`);
    /// any other body by size only: a gRPC message, whose field names the bytes do not carry, or
    /// text, in which no name says where a secret is.
    func redacted(_ body: Data, contentType: String?, kind: CallKind) -> String {
        let isForm = contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        guard kind != .grpc, isForm || JSONSlices(body).kind != nil, let text = secrets.redacted(body: body, contentType: contentType) else {
            return "<\(body.count) bytes>"
        }
        return text
    }
}
