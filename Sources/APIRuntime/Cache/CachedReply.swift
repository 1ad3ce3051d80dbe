import Foundation
import HTTPTypes

/// A reply the cache keeps: the bytes an API's response decoder reads, and what decides when
/// they may be used again and for whom.
package struct CachedReply: Sendable {
    /// The reply's status: a 2xx, or gRPC's OK.
    package var status: ReplyStatus
    /// What the API's decoder reads: a REST body, a JSON-RPC result, a gRPC message.
    package var body: Data
    /// The reply's headers (a gRPC reply's initial metadata): its validators and `Vary`, and what
    /// the decoder and the caller see on a hit.
    package var headers: HTTPFields
    /// A gRPC reply's trailing metadata; empty for other protocols.
    package var trailers: HTTPFields = [:]
    /// When it is fresh, and how long it may be served stale.
    package var freshness: HTTPFreshness
    /// The digests of the request's values of the headers the reply's `Vary` names, by
    /// lowercased name: a later call uses the reply only if its own values are the same.
    package var variants: [String: String]
    /// The tags a mutation's `invalidates:` drops it by.
    package var tags: Set<String>
    /// Whose reply it is: the account of the credentials the call carried; nil when shared.
    package var account: String?
    /// The digest of the call's identity as planned (`CallPlan.callIdentity`), by which
    /// `ResponseCache.remove(_:)` finds the call's replies for every account.
    package var call: String

    /// Bytes it holds under `key`, as a store's bound counts them: the body, the fields, the tags,
    /// the key, and `overhead` for the structures that hold them.
    package func cost(key: String) -> Int {
        func size(_ fields: HTTPFields) -> Int {
            fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
        }
        return body.count + size(headers) + size(trailers) + tags.reduce(0) { $0 + $1.utf8.count } + key.utf8.count + Self.overhead
    }

    /// What an entry costs in memory beyond its bytes: its field and tag collections, its
    /// freshness, the store's list links and dictionary slot. Measured, not derived: with it,
    /// 100,000 distinct small replies in an 8 MiB memory store grow resident memory by about the
    /// bound (`make bench-runtime`).
    static let overhead = 640

    /// The reply as the call's decoder reads it.
    var response: APIResponse {
        APIResponse(status: status, headerFields: headers, body: body, trailerFields: trailers)
    }

    /// This reply with the header fields of a `304 Not Modified` that confirmed it: each replaces
    /// the stored field of its name (RFC 9111, section 4.3.4), except the fields that frame a body
    /// and `Set-Cookie`, which is the cookie jar's and never stored.
    func updated(with notModified: HTTPFields) -> CachedReply {
        var updated = self
        for name in Set(Self.storedFields(notModified).map(\.name)) where !name.isFraming {
            updated.headers[values: name] = notModified[values: name]
        }
        return updated
    }

    /// The validators a revalidation sends: `If-None-Match` for an `ETag`, `If-Modified-Since`
    /// for a `Last-Modified`.
    var validators: HTTPFields {
        var fields = HTTPFields()
        if let tag = headers[.eTag] { fields[.ifNoneMatch] = tag }
        if let modified = headers[.lastModified] { fields[.ifModifiedSince] = modified }
        return fields
    }

    /// Whether the reply answers a request with `headers`: every header its `Vary` names has
    /// the value it had when the reply was stored (absent both times counts as the same), both
    /// compared as their `digest`s.
    func matches(_ headers: HTTPFields, digest: (String) -> String) -> Bool {
        variants.allSatisfy { name, value in
            HTTPField.Name(name).map { digest(Self.combined(headers, $0)) } == value
        }
    }

    /// A header's values in one line, as `Vary` compares them.
    static func combined(_ headers: HTTPFields, _ name: HTTPField.Name) -> String {
        headers[values: name].joined(separator: ", ")
    }

    /// A reply's fields as the cache keeps them: without `Set-Cookie`, whose cookies went to the
    /// cookie jar when the reply came, and which would set them again on every hit.
    static func storedFields(_ fields: HTTPFields) -> HTTPFields {
        fields.contains { $0.name == .setCookie } ? fields.filter { $0.name != .setCookie } : fields
    }

    /// Whether a field of this name holds a secret (a rotated token in `X-Auth-Token`), which a
    /// store on disk keeps sealed.
    package static func isSecret(_ name: HTTPField.Name) -> Bool {
        SecretNames.standard.containsHeader(name.canonicalName)
    }

    /// The headers a reply's `Vary` names, lowercased, with the digests of the request's values
    /// of them.
    static func variants(of reply: HTTPFields, request: HTTPFields, digest: (String) -> String) -> [String: String] {
        var variants: [String: String] = [:]
        for name in varyNames(in: reply) {
            guard let field = HTTPField.Name(name) else { continue }
            variants[name] = digest(combined(request, field))
        }
        return variants
    }

    /// The names a reply's `Vary` lists, from every line, lowercased (`*` among them as it is).
    static func varyNames(in reply: HTTPFields) -> [String] {
        reply[values: .vary].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}

extension CachedReply: Codable {
    private enum CodingKeys: String, CodingKey {
        case status, grpcMessage, body, headers, trailers, freshness, variants, tags, account, call
    }

    /// A gRPC status is its code with its message; an HTTP one, its code.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decode(Int.self, forKey: .status)
        if let message = try container.decodeIfPresent(String.self, forKey: .grpcMessage) {
            status = .grpc(GRPCStatusCode(rawValue: code), message: message)
        } else {
            status = .http(HTTPResponse.Status(code: code))
        }
        body = try container.decode(Data.self, forKey: .body)
        headers = try container.decode(HTTPFields.self, forKey: .headers)
        trailers = try container.decode(HTTPFields.self, forKey: .trailers)
        freshness = try container.decode(HTTPFreshness.self, forKey: .freshness)
        variants = try container.decode([String: String].self, forKey: .variants)
        tags = try container.decode(Set<String>.self, forKey: .tags)
        account = try container.decodeIfPresent(String.self, forKey: .account)
        call = try container.decode(String.self, forKey: .call)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch status {
        case .http(let status): try container.encode(status.code, forKey: .status)
        case .grpc(let code, let message):
            try container.encode(code.rawValue, forKey: .status)
            try container.encode(message, forKey: .grpcMessage)
        case .grpcStream:
            throw EncodingError.invalidValue(status, .init(codingPath: [CodingKeys.status], debugDescription: "a stream is never cached"))
        }
        try container.encode(body, forKey: .body)
        try container.encode(headers, forKey: .headers)
        try container.encode(trailers, forKey: .trailers)
        try container.encode(freshness, forKey: .freshness)
        try container.encode(variants, forKey: .variants)
        try container.encode(tags, forKey: .tags)
        try container.encodeIfPresent(account, forKey: .account)
        try container.encode(call, forKey: .call)
    }
}
