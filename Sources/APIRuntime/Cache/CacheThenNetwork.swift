/// The replies of `BaseAPI.cacheThenNetwork()`: the stored one at once, when there is one, then
/// the network's, so that a screen shows what it had and then what is new.
///
/// ```swift
/// for try await reply in GetUserAPI(id: 7).cacheThenNetwork() {
///     show(reply.value, fromCache: reply.source.isFromCache)
/// }
/// ```
///
/// Each step is one call, made when the loop asks for it: leaving the loop after the cached value
/// sends nothing. An API without a `cache:` yields the network's reply alone. A network failure
/// ends the loop with its error after the cached value.
public struct CacheThenNetwork<Response: Sendable>: AsyncSequence, Sendable {
    /// A reply: the value, its fields, and where it came from (`source`).
    public typealias Element = APIReply<Response>
    /// What a call throws.
    public typealias Failure = APIError

    let api: BaseAPI<Response>
    let options: APICallOptions

    /// An iterator that makes the calls as it is asked for replies.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(api: api, options: options, step: api.hasCache ? .cache : .network)
    }

    /// The cached reply (a call with `CachePolicy.cacheOnly`), then the network's (`.reload`).
    public struct AsyncIterator: AsyncIteratorProtocol {
        enum Step { case cache, network, done }

        let api: BaseAPI<Response>
        let options: APICallOptions
        var step: Step

        /// The next reply; nil after the network's.
        public mutating func next() async throws(APIError) -> APIReply<Response>? {
            while true {
                switch step {
                case .cache:
                    step = .network
                    var cacheOnly = options
                    cacheOnly.cachePolicy = .cacheOnly
                    do {
                        return try await api.startWithMetadata(options: cacheOnly)
                    } catch where error.reason == .notCached {
                        continue
                    }
                case .network:
                    step = .done
                    var reload = options
                    reload.cachePolicy = .reload
                    return try await api.startWithMetadata(options: reload)
                case .done:
                    return nil
                }
            }
        }
    }
}

extension BaseAPI {
    /// The stored reply at once, when there is one, then the network's: Apollo's
    /// `returnCacheDataAndFetch`. See `CacheThenNetwork`.
    public final func cacheThenNetwork(options: APICallOptions = APICallOptions()) -> CacheThenNetwork<Response> {
        CacheThenNetwork(api: self, options: options)
    }

    /// Whether calls of this API may be answered from the cache.
    final var hasCache: Bool {
        definition.isCacheable && (definition.cache ?? definition.defaults.cache) != nil
    }
}
