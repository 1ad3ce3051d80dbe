import Foundation
import HTTPTypes
import Logging

/// Logs every call through swift-log: the request as it leaves, the outcome as it returns.
/// Credentials never reach the log: `Authorization`, `Cookie`, `Set-Cookie` and the configured
/// secret headers and JSON fields are written as `<redacted>`.
public struct LoggingInterceptor: APIInterceptor {
    public var logger: Logger
    /// Extra header names to redact (matched without regard to case).
    public var secretHeaders: Set<String>
    /// JSON field and query item names whose values are redacted in logged bodies and URLs.
    public var secretFields: Set<String>
    /// Bodies are logged only when asked for (at `.trace`), and then with secrets redacted.
    public var logsBodies: Bool

    static let alwaysSecret: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    public init(logger: Logger, secretHeaders: Set<String> = [], secretFields: Set<String> = [], logsBodies: Bool = false) {
        self.logger = logger
        self.secretHeaders = Set(secretHeaders.map { $0.lowercased() })
        self.secretFields = secretFields
        self.logsBodies = logsBodies
    }

    public var name: String { "logging" }

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
        logger.debug("→ \(request.method.rawValue) \(redacted(request.url))", metadata: metadata)

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

    func redacted(_ fields: HTTPFields) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        for field in fields {
            let name = field.name.canonicalName
            let secret = Self.alwaysSecret.contains(name) || secretHeaders.contains(name)
            metadata[field.name.rawName] = .string(secret ? "<redacted>" : field.value)
        }
        return metadata
    }

    /// The URL with the values of secret query items redacted (`?api_key=<redacted>`).
    func redacted(_ url: URL) -> String {
        guard !secretFields.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.percentEncodedQueryItems
        else { return url.absoluteString }
        components.percentEncodedQueryItems = items.map { item in
            secretFields.contains(item.name.removingPercentEncoding ?? item.name) ? URLQueryItem(name: item.name, value: "%3Credacted%3E") : item
        }
        return components.string ?? url.absoluteString
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
                (key, secretFields.contains(key) ? .string("<redacted>") : redacting(member))
            }))
        case .array(let items):
            return .array(items.map(redacting))
        default:
            return value
        }
    }
}
