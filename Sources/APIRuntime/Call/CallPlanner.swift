import APIWireFormat

/// What an API hands its manager to make one call. The manager plans and sends the call from
/// these parts and never asks the API for more.
struct APICall<Response: Sendable>: Sendable {
    /// The API instance making the call, which a test's typed stub is handed.
    let instance: any Sendable
    let definition: APIDefinition
    let parameters: RequestBuilder
    let delegate: (any RPCDelegate)?
    let decoder: ResponseDecoder<Response>
    let options: APICallOptions
}

extension APIManager {
    /// Resolves a call into its plan, before anything is sent.
    ///
    /// Every setting is chosen here, and in one order: the call's options (its instance's and
    /// `start(options:)`'s), then its API's manifest, then its workspace's defaults, then this
    /// manager's configuration; the first that sets a value wins. The call's deadline is set
    /// here too, once, from the timeout so chosen. One setting is the app's before any
    /// manifest's: `maxConnectionsByHost`, for the host the call goes to.
    func plan<Response>(_ call: APICall<Response>) throws(APIError) -> CallPlan {
        let definition = call.definition, defaults = definition.defaults, options = call.options
        let timeout = (options.timeout ?? definition.timeout ?? defaults.timeout ?? configuration.timeout).clampedForWaiting
        let frequency = definition.frequency ?? defaults.frequency ?? configuration.frequency
        let retry = definition.retry ?? defaults.retry ?? configuration.retry
        let rateLimit = definition.rateLimit ?? defaults.rateLimit ?? configuration.rateLimit
        let (base, declared) = try baseURLs.baseURL(of: definition, options: options)
        let maxConnections = maxConnectionsByHost[base.host] ?? defaults.maxConnectionsPerHost ?? configuration.maxConnectionsPerHost

        let deadline = clock.now + timeout
        var request = try call.parameters.makeRequest(for: definition, at: base, headers: options.headers, timeout: timeout, deadline: deadline)
        request.streamsResponseBody = call.decoder.streamsBody

        // Streams are always allowed, and never cached: a request stream has no identity to
        // compare, and a reply stream has one reader, so it cannot be shared.
        let streams = request.messageProducer != nil || request.streamedBody != nil || request.streamsResponse || request.streamsResponseBody
        let cacheSettings = streams || !definition.isCacheable ? nil : definition.cache ?? defaults.cache
        // Concurrent misses of a cached call share one request.
        let duplicates: FrequencyPolicy = streams ? .allow : frequency == .allow && cacheSettings != nil ? .coalesce : frequency
        // What the cache finds this call's replies by: the call as planned, before a delegate adds
        // its envelope (a JSON-RPC id differs on every call) and before interceptors adapt it.
        let callIdentity = cacheSettings == nil ? "" : ResponseCache.identity(of: request, definition: definition)
        let unwrappedBody = request.body

        var rpc: RPCCall?
        if let delegate = call.delegate {
            let needsID = delegate.usesRequestIDs && !definition.wire.isNotification
            let wrapped = RPCCall(definition: definition, id: needsID ? nextRequestID() : nil)
            try delegate.wrap(&request, for: wrapped)
            rpc = wrapped
        }

        let transport = try transport(for: definition, delegate: call.delegate)
        guard transport.schemes.contains(base.scheme) else {
            let schemes = transport.schemes.sorted().joined(separator: ", ")
            throw APIError(api: definition.name, reason: .invalidRequest(
                message: "a \(base.scheme) URL is not one the \(transport.name) transport can reach (\(schemes))"
            ))
        }
        let session = SessionKey(transport: transport.name, scheme: base.scheme, host: base.host, port: base.port)
        let tlsSettings = tls[base.host] ?? .standard
        guard tlsSettings == .standard || ["https", "grpcs"].contains(base.scheme) else {
            throw APIError(api: definition.name, reason: .invalidRequest(
                message: "\(base.host) has TLS settings, and a \(base.scheme) URL would reach it without TLS"
            ))
        }
        return CallPlan(
            caller: .api(call.instance),
            definition: definition,
            delegate: call.delegate,
            rpc: rpc,
            request: request,
            unwrappedBody: unwrappedBody,
            callIdentity: callIdentity,
            context: APICallContext(
                definition: definition, rpc: rpc, kind: definition.kind, attempt: 1,
                declaredBaseURL: declared, workspaceBaseURL: defaults.baseURL.map(baseURLs.mapped), origins: baseURLs.declaredOrigins(of: definition)
            ),
            deadline: deadline,
            timeout: timeout,
            duplicates: duplicates,
            retry: retry.allows(definition) && request.canBeSentAgain ? retry : .none,
            rateLimits: rateLimit.map { [RateLimitBucket(limit: $0, key: bucketKey(of: $0, api: definition.name, session: session))] } ?? [],
            session: session,
            sessionSettings: SessionSettings(
                maxConnectionsPerHost: maxConnections,
                connectTimeout: configuration.connectTimeout,
                tls: tlsSettings,
                cookies: cookies
            ),
            transport: transport,
            cache: cacheSettings.map { CallPlan.Caching(settings: $0, policy: options.cachePolicy ?? .cacheElseNetwork) }
        )
    }

    /// The bucket a rate limit counts in: the API's own, or one shared by every API of the host.
    func bucketKey(of limit: RateLimit, api: String, session: SessionKey) -> String {
        limit.scope == .api ? "api:" + api : "host:" + session.description
    }

    /// The transport factory of a call's kind: the configuration's, else the one its gRPC method
    /// or its protocol brings.
    func transport(for definition: APIDefinition, delegate: (any RPCDelegate)?) throws(APIError) -> TransportFactory {
        let kind = definition.kind
        let configured = kind == .grpc ? configuration.grpcTransport : configuration.httpTransport
        guard let factory = configured ?? definition.wire.grpcMethod?.defaultTransport ?? delegate?.defaultTransport else {
            throw APIError(api: definition.name, reason: .invalidRequest(message: "no transport for \(kind) calls: set APIManager.Configuration.grpcTransport"))
        }
        return factory
    }
}
