/// The URLs an API's description names, put together as the runtime puts them together: for the
/// tools that call or answer an API outside the generated code (`apigen serve`, `apigen verify`).
public enum EndpointURL {
    /// `base` and `path` with one slash between them; `base` alone for an empty path (a JSON-RPC
    /// endpoint given as an absolute URL).
    public static func joined(_ base: String, _ path: String) -> String {
        guard !path.isEmpty else { return base }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmed + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// The path of a URL (`https://api.example.com/v1` → `/v1`, and `""` without one); a path as
    /// it is.
    public static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "" }
        return String(rest[slash...].prefix { $0 != "?" })
    }
}
