/// The kinds of API a manifest can declare.
public enum APIKind: String, ManifestKeyword {
    case rest
    /// JSON-RPC 2.0 through the built-in delegate.
    case jsonrpc
    /// A remote procedure call wrapped by a delegate type the app writes (`delegate:`).
    case rpc
    /// A gRPC method from the file's `grpc:` protos (`rpc:`), or every method of a service (`service:`).
    case grpc

    public var isRPC: Bool { self != .rest }
}

/// The access level of every generated declaration: `public` for a client module of its own,
/// `package` or `internal` for a client kept inside the app's module or package.
public enum AccessLevel: String, ManifestKeyword {
    case `public`
    case `package`
    case `internal`
}

/// How a `Date` is written in JSON and in parameters.
public enum DateFormat: String, ManifestKeyword {
    /// ISO 8601 text, `2024-05-01T12:30:00Z` (the default).
    case iso8601
    /// Seconds since 1970 as a JSON number.
    case unixSeconds
    /// Milliseconds since 1970 as a JSON number.
    case unixMilliseconds
}

/// How RPC parameters travel: as a JSON object by name, or a JSON array by position.
public enum ParameterStructure: String, ManifestKeyword {
    case byName
    case byPosition
}

public enum HTTPMethodName: String, ManifestKeyword {
    case GET, POST, PUT, PATCH, DELETE, HEAD

    /// Methods whose requests conventionally carry a body; used to pick a parameter's default location.
    public var hasBody: Bool { self == .POST || self == .PUT || self == .PATCH }
}

/// Where a REST parameter travels.
public enum ParameterLocation: String, ManifestKeyword {
    case path, query, header, body
}

/// How `body` parameters are encoded.
public enum BodyEncoding: String, ManifestKeyword {
    case json
    case form
    case multipart
}

/// What the manager does with a call identical to one already in flight.
public enum FrequencyPolicy: String, ManifestKeyword {
    /// Send it anyway.
    case allow
    /// Fail the new call at once with a duplicate-request error.
    case reject
    /// Let the new call share the outcome of the one in flight.
    case coalesce
}

/// What a rate limit counts calls by.
public enum RateLimitScope: String, ManifestKeyword {
    case api, host
}

/// Whose replies a cache entry serves.
public enum CacheScope: String, ManifestKeyword {
    case credential, shared
}

/// What a call over its rate limit does.
public enum RateLimitBehavior: String, ManifestKeyword {
    case wait, fail
}
