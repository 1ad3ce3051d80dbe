/// What one call sets for itself, above its API's manifest, its workspace's defaults and the
/// manager's configuration, as grpc-swift's `CallOptions` does:
///
/// ```swift
/// let user = try await GetUserAPI(id: 7).start(options: APICallOptions(timeout: .seconds(5)))
/// ```
///
/// An API instance keeps options of its own (`api.options.timeout = .seconds(5)`); the options
/// given to `start(options:)` go over them: a value set there replaces the instance's, headers
/// are sent after the instance's, and tags are added to them.
public struct APICallOptions: Sendable {
    /// The whole call's time limit, every attempt and wait included.
    public var timeout: Duration?
    /// Headers sent after, and so replacing, the workspace's, the API's and the parameters'.
    public var headers: [(name: String, value: String)]
    /// Where the call goes instead of the base URL its manifest declares (overrides included).
    public var baseURL: String?
    /// Tags added to the manifest's `tags:`; `APIManager.cancel(tag:)` cancels by them.
    public var tags: Set<String>
    /// Told how far the call's upload and download have got, as their bytes go out and come in,
    /// on no particular thread: for a progress bar. Each attempt of a retried call starts again
    /// from zero.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// How the call uses its API's cache (`cache:` in the manifest); nil is `.cacheElseNetwork`.
    /// APIs without a cache ignore it.
    public var cachePolicy: CachePolicy?

    /// Options that set only what is given; what they leave nil or empty falls back to the API, its workspace and the manager.
    public init(
        timeout: Duration? = nil,
        headers: [(name: String, value: String)] = [],
        baseURL: String? = nil,
        tags: Set<String> = [],
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        cachePolicy: CachePolicy? = nil
    ) {
        self.timeout = timeout
        self.headers = headers
        self.baseURL = baseURL
        self.tags = tags
        self.progress = progress
        self.cachePolicy = cachePolicy
    }

    /// These options with `other`'s on top.
    func adding(_ other: APICallOptions) -> APICallOptions {
        APICallOptions(
            timeout: other.timeout ?? timeout,
            headers: headers + other.headers,
            baseURL: other.baseURL ?? baseURL,
            tags: tags.union(other.tags),
            progress: other.progress ?? progress,
            cachePolicy: other.cachePolicy ?? cachePolicy
        )
    }
}
