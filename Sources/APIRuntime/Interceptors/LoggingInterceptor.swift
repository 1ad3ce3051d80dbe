import Foundation
import HTTPTypes
import Logging

/// Logs every call through swift-log: the request as it leaves, the outcome as it returns.
/// Secrets never reach the log: the values of headers, gRPC metadata, query items and JSON
/// fields whose names `secrets` holds (`Authorization`, `X-API-Key`, `?token=`, `access_token`,
/// `password`, … by default) are written as `<redacted>`, and so are `Authorization`, `Cookie`,
/// `Set-Cookie` and `Proxy-Authorization` whatever `secrets` says.
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
        next: (APIRequest) async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        var metadata: Logger.Metadata = [
            "api": "\(request.api)",
            "kind": "\(context.kind)",
            "attempt": "\(context.attempt)",
            "headers": .dictionary(redacted(request.headerFields)),
        ]
        if logsBodies, let body = request.body { metadata["body"] = "\(redacted(body))" }
        if logsBodies, let streamed = request.streamedBody {
            // Its bytes are read once, by the transport; the log says how many there are.
            metadata["body"] = if case .known(let count) = streamed.length { "(\(count) bytes, streamed)" } else { "(streamed)" }
        }
        logger.debug("→ \(request.method.rawValue) \(request.url.map { redacted($0, template: context.definition.pathTemplate) } ?? "")", metadata: metadata)

        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next(request)
            var result: Logger.Metadata = [
                "api": "\(request.api)",
                "status": "\(response.statusSummary)",
                "duration": "\(clock.now - start)",
                "headers": .dictionary(redacted(response.headerFields)),
            ]
            if logsBodies { result["body"] = "\(redacted(response.body))" }
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
        for field in fields {
            let name = field.name.canonicalName
            let secret = secrets.containsHeader(name)
            metadata[field.name.rawName] = .string(secret ? "<redacted>" : field.value)
        }
        return metadata
    }

    /// The URL with the values of secret query items (`?api_key=<redacted>`) and of secret path
    /// parameters (`/reset/<redacted>` for `/reset/{token}`) redacted.
    func redacted(_ url: URL, template: PathTemplate? = nil) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unreadable URL>" }
        if let template {
            components.percentEncodedPath = redacted(path: components.percentEncodedPath, template: template)
        }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                secrets.contains(item.name.removingPercentEncoding ?? item.name) ? URLQueryItem(name: item.name, value: "%3Credacted%3E") : item
            }
        }
        return components.string ?? "<unreadable URL>"
    }

    /// `path` with the values of the template's secret placeholders redacted. The template is the
    /// end of the path (a base URL's path comes before it), so it is matched from the end: each
    /// placeholder's value lies between the fixed texts around it, and a value never holds a
    /// `/`. A path the template does not match is redacted whole, should it hold a secret.
    func redacted(path: String, template: PathTemplate) -> String {
        let secretPlaceholders = template.parts.contains { if case .placeholder(let name) = $0 { secrets.contains(name) } else { false } }
        guard secretPlaceholders else { return path }
        var rest = Substring(path)
        var pieces: [String] = []
        var parts = template.parts[...]
        while let part = parts.popLast() {
            switch part {
            case .text(let text):
                guard rest.hasSuffix(text) else { return "/<redacted>" }
                pieces.append(text)
                rest = rest.dropLast(text.count)
            case .placeholder(let name):
                // The value runs back to the fixed text before it, or to the segment's start.
                let start: Substring.Index
                if case .text(let before)? = parts.last, let found = rest.range(of: before, options: .backwards) {
                    start = found.upperBound
                } else {
                    start = rest.lastIndex(of: "/").map(rest.index(after:)) ?? rest.startIndex
                }
                pieces.append(secrets.contains(name) ? "%3Credacted%3E" : String(rest[start...]))
                rest = rest[..<start]
            }
        }
        return String(rest) + pieces.reversed().joined()
    }

    /// The body as text, with secret JSON fields redacted; non-JSON bodies by size only.
    func redacted(_ body: Data) -> String {
        guard let value = JSONValue.parse(body) else { return "<\(body.count) bytes>" }
        return String(decoding: redacting(value).data, as: UTF8.self)
    }

    private func redacting(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(Dictionary(uniqueKeysWithValues: members.map { key, member in
                (key, secrets.contains(key) ? .string("<redacted>") : redacting(member))
            }))
        case .array(let items):
            return .array(items.map(redacting))
        default:
            return value
        }
    }
}
