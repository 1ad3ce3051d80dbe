/// Reads the call policies an API or the workspace defaults may set: `retry:`, `rateLimit:`,
/// `sample:`, `cache:` and lists of names (`tags:`, `significantHeaders:`).
enum PolicyReader {
    static let retryKeys = ManifestKeys.names(in: .retry)
    static let rateLimitKeys = ManifestKeys.names(in: .rateLimit)
    static let sampleKeys = ManifestKeys.names(in: .sample)
    static let cacheKeys = ManifestKeys.names(in: .cache)

    /// `retry: none`, or `retry: { attempts: 3, delay: 0.2, maxDelay: 5, statuses: [503], nonIdempotent: true }`.
    static func retry(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> RetryDeclaration? {
        if node.scalarText == "none" {
            return RetryDeclaration(location: node.location, isNone: true, statuses: [])
        }
        guard let mapping = node.requireMapping("retry", into: &diagnostics) else { return nil }
        mapping.reportUnknownKeys(allowed: retryKeys, in: "retry", into: &diagnostics)
        var statuses: [Located<Int>] = []
        if let list = mapping["statuses"] {
            if let items = list.sequence {
                statuses = items.compactMap { $0.integer("a retryable status", into: &diagnostics) }
            } else {
                diagnostics.error("statuses must be a list of HTTP status codes, found \(list.shapeName)", at: list.location)
            }
        }
        return RetryDeclaration(
            location: node.location, isNone: false,
            attempts: mapping["attempts"]?.integer("attempts", into: &diagnostics),
            delay: mapping["delay"]?.duration("delay", into: &diagnostics),
            maxDelay: mapping["maxDelay"]?.duration("maxDelay", into: &diagnostics),
            statuses: statuses,
            nonIdempotent: mapping["nonIdempotent"]?.boolean("nonIdempotent", into: &diagnostics)
        )
    }

    /// `rateLimit: { calls: 10, per: 1, scope: host, when: fail }`.
    static func rateLimit(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> RateLimitDeclaration? {
        guard let mapping = node.requireMapping("rateLimit", into: &diagnostics) else { return nil }
        mapping.reportUnknownKeys(allowed: rateLimitKeys, in: "rateLimit", into: &diagnostics)
        let calls = mapping["calls"]?.integer("calls", into: &diagnostics)
        let per = mapping["per"]?.duration("per", zeroAllowed: false, into: &diagnostics)
        let scope = mapping["scope"]?.keyword(RateLimitScope.self, "rate limit scope", into: &diagnostics)
        let behavior = mapping["when"]?.keyword(RateLimitBehavior.self, "rate limit behaviour", into: &diagnostics)
        if mapping["calls"] == nil || mapping["per"] == nil {
            diagnostics.error("rateLimit needs 'calls:' and 'per:' (seconds)", at: node.location)
        }
        guard let calls, let per else { return nil }
        return RateLimitDeclaration(location: node.location, calls: calls, per: per, scope: scope, behavior: behavior)
    }

    /// `sample: { status: 200, body: {...}, delay: 0.3 }`: the body is any YAML, kept as JSON.
    static func sample(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> SampleDeclaration? {
        guard let mapping = node.requireMapping("sample", into: &diagnostics) else { return nil }
        mapping.reportUnknownKeys(allowed: sampleKeys, in: "sample", into: &diagnostics)
        return SampleDeclaration(
            location: node.location,
            status: mapping["status"]?.integer("status", into: &diagnostics),
            body: mapping["body"].flatMap { body in body.jsonText(into: &diagnostics).map { Located($0, at: body.location) } },
            delay: mapping["delay"]?.duration("delay", into: &diagnostics)
        )
    }

    /// `cache: http`, or `cache: { ttl: 60, staleWhileRevalidate: 300, staleIfError: 86400, revalidate: true, scope: shared }`.
    static func cache(_ node: YAMLNode, into diagnostics: inout Diagnostics) -> CacheDeclaration? {
        if node.scalarText == "http" { return CacheDeclaration(location: node.location) }
        if node.mapping == nil, let text = node.scalarText {
            diagnostics.error("cache must be 'http' or a mapping of ttl, staleWhileRevalidate, staleIfError, revalidate and scope, found '\(text)'", at: node.location)
            return nil
        }
        guard let mapping = node.requireMapping("cache", into: &diagnostics) else { return nil }
        mapping.reportUnknownKeys(allowed: cacheKeys, in: "cache", into: &diagnostics)
        func seconds(_ name: String) -> Located<Int>? {
            guard let value = mapping[name]?.integer(name, into: &diagnostics) else { return nil }
            guard value.value >= 0 else {
                diagnostics.error("\(name) is a number of seconds, at least 0, found \(value.value)", at: value.location)
                return nil
            }
            return value
        }
        return CacheDeclaration(
            location: node.location,
            ttl: seconds("ttl"),
            staleWhileRevalidate: seconds("staleWhileRevalidate"),
            staleIfError: seconds("staleIfError"),
            revalidate: mapping["revalidate"]?.boolean("revalidate", into: &diagnostics),
            scope: mapping["scope"]?.keyword(CacheScope.self, "cache scope", into: &diagnostics)
        )
    }

    static func strings(_ node: YAMLNode, _ what: String, into diagnostics: inout Diagnostics) -> [Located<String>] {
        guard let items = node.sequence else {
            diagnostics.error("\(what) must be a list, found \(node.shapeName)", at: node.location)
            return []
        }
        return items.compactMap { $0.string("an item of \(what)", into: &diagnostics) }
    }
}
