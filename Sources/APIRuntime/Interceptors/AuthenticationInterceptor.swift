import APIWireFormat
import Foundation
import HTTPTypes

/// Where the authentication interceptor gets its credentials.
public protocol TokenProvider: Sendable {
    /// The token to start with (read from the keychain, say).
    func initialToken() async throws -> String
    /// A new token to replace `rejected`, which the server refused (a refresh-token grant, say).
    func refreshToken(replacing rejected: String) async throws -> String
    /// Who the tokens are for (the signed-in user's id), when the provider knows it without a
    /// token. The response cache then keeps the account's replies under this name, so that a call
    /// the cache can answer is answered even while no token can be had (an `initialToken()` that
    /// needs the network, offline), and a log-out by the name removes them
    /// (`ResponseCache.removeAll(credential:)`). nil, the default: the cache knows the account
    /// by its tokens.
    func account() async -> String?
}

extension TokenProvider {
    /// None: the account is known by its tokens.
    public func account() async -> String? { nil }
}

/// Adds `Authorization: Bearer <token>` to the calls that go to the hosts it trusts and, when
/// the server says the token is no good (HTTP 401, gRPC's UNAUTHENTICATED, or a configured
/// JSON-RPC error code), refreshes it once for any number of calls that failed with it at the
/// same time, then asks for each of those calls to be sent again: a new attempt, which every
/// interceptor sees. After `maxRefreshes` refreshes for one call, the call fails with
/// `.unauthorized`. Calls to other hosts go through untouched.
///
/// By default the token goes only to the app's own server: the origin of the workspace's default
/// base URL. An API that declares a base URL elsewhere (a maps or payments provider described in
/// the same workspace) is sent without it, unless its manifest says `authenticated: true`; an API
/// whose manifest says `authenticated: false` never carries it.
///
/// The token never travels in clear text (plain `http`, plaintext gRPC) to anything but this
/// machine (`localhost`, 127.0.0.0/8, `::1`): such a call fails with `.invalidRequest` rather than
/// go out with it or without it, unless its API's manifest itself declares that clear-text base
/// URL and says `authenticated: true`, which `apigen lint` warns about.
///
/// A call whose request cannot be sent again (an upload streamed from a sequence, a gRPC client
/// stream) is not: after the refresh it fails with `.unauthorized`, and the app starts it again
/// with a new body, which goes out with the new token.
public struct AuthenticationInterceptor: APIInterceptor {
    /// Which calls carry the token.
    public enum Hosts: Sendable, Equatable {
        /// Calls to the origin (scheme, host and port) of their workspace's default base URL, as
        /// the manager's `baseURLOverrides` map it, and calls of APIs whose manifest says
        /// `authenticated: true` to the origin of the base URL they declare. Never a base URL set
        /// on an instance at run time to somewhere else. The default.
        case workspace
        /// Calls to the origin of the base URL their manifest declares, whichever it is, as the
        /// manager's `baseURLOverrides` map it: every server the workspace describes.
        case declared
        /// Calls to these host names (`api.example.com`), over any scheme and port.
        case named(Set<String>)
        /// Every call, wherever it goes.
        case any
    }

    let tokens: TokenStore
    /// How many refreshes one call may ask for before it fails with `.unauthorized`.
    public let maxRefreshes: Int
    /// JSON-RPC error codes that mean "credentials rejected", for servers that answer 200 with an error.
    public let rejectingRPCCodes: Set<Int>
    /// The header that carries the token: `Authorization` unless given.
    public let headerName: HTTPField.Name
    /// What precedes the token in the header (`Bearer`); empty for the token alone.
    public let scheme: String
    /// Which calls carry the token.
    public let hosts: Hosts

    /// An interceptor that takes its tokens from `provider` and puts them on the calls `hosts` trusts, as `scheme` plus the token in `headerName`; the JSON-RPC errors with `rejectingRPCCodes` count as a 401.
    public init(
        provider: any TokenProvider,
        maxRefreshes: Int = 2,
        rejectingRPCCodes: Set<Int> = [],
        headerName: HTTPField.Name = .authorization,
        scheme: String = "Bearer",
        hosts: Hosts = .workspace
    ) {
        self.tokens = TokenStore(provider: provider)
        self.maxRefreshes = maxRefreshes
        self.rejectingRPCCodes = rejectingRPCCodes
        self.headerName = headerName
        self.scheme = scheme
        self.hosts = hosts
    }

    /// Whether `request` goes where the token may go.
    func trusts(_ request: APIRequest, context: APICallContext) -> Bool {
        if context.definition.authenticated == false { return false }
        switch hosts {
        case .any:
            return true
        case .named(let names):
            guard let host = request.url?.host?.lowercased() else { return false }
            return names.contains { $0.lowercased() == host }
        case .declared:
            guard let declared = context.declaredOrigin else { return false }
            return declared == request.url.flatMap(Origin.init)
        case .workspace:
            guard let declared = context.declaredOrigin, declared == request.url.flatMap(Origin.init) else { return false }
            return context.definition.authenticated == true || declared == context.workspaceOrigin
        }
    }

    /// Whether the API's manifest itself sends the token where `request` goes in clear text: it
    /// says `authenticated: true`, and the base URL it declares is that origin. A base URL a
    /// manager's `baseURLOverrides` or an instance moved there is not the manifest's say.
    static func manifestSendsInClearText(_ request: APIRequest, _ definition: APIDefinition) -> Bool {
        guard definition.authenticated == true, let declared = definition.declaredOrigin else { return false }
        return declared == request.url.flatMap(Origin.init)
    }

    /// How many times the provider has been asked for a new token.
    public var refreshCount: Int {
        get async { await tokens.refreshes }
    }

    /// `authentication`, as a manifest names it in `skipInterceptors:`.
    public var name: String { "authentication" }

    /// Adds the token to a trusted call, before the cache and the duplicate gate read it; a
    /// rejected one is refreshed in `retryDecision`, and the next attempt is adapted with the new
    /// one.
    ///
    /// A token that cannot be had fails the call, unless the provider names the account: the call
    /// may then still be answered from the cache for that account, and fails only when it would
    /// have to be sent. For such an account the cache looks first, without waiting for a token
    /// that is not at hand (an `initialToken()` that needs the network); the token is waited for
    /// only if the call must be sent.
    public func adapt(_ request: APIRequest, context: APICallContext) async throws(APIError) -> APIRequest {
        guard trusts(request, context: context) else { return request }
        if HostName.isCleartext(scheme: request.head.scheme, host: request.url?.host), !Self.manifestSendsInClearText(request, context.definition) {
            throw APIError(api: request.api, reason: .invalidRequest(
                message: "the token is not sent in clear text to \(request.head.scheme ?? "")://\(request.url?.host ?? ""), which is neither TLS nor this machine: use https (or gRPC over TLS), or declare that base URL in the API's manifest with 'authenticated: true' to send it anyway"
            ))
        }
        var authorized = request
        authorized.account = await tokens.provider.account()
        if authorized.account != nil, context.cacheLooksFirst {
            guard let token = await tokens.tokenAtHand() else {
                authorized.credentialIsPending = true
                return authorized
            }
            authorized.headerFields[headerName] = scheme.isEmpty ? token : "\(scheme) \(token)"
            return authorized
        }
        do {
            let token = try await tokens.current(for: request.api)
            authorized.headerFields[headerName] = scheme.isEmpty ? token : "\(scheme) \(token)"
        } catch where authorized.account != nil && error.reason != .cancelled {
            authorized.missingCredential = error
        }
        return authorized
    }

    /// A refused token is refreshed (once for every call it was refused to), then the call is
    /// sent again with the new one; past `maxRefreshes` for one call, or when the request cannot
    /// be sent again, the call fails with `.unauthorized`.
    public func retryDecision(
        after outcome: Result<APIResponse, APIError>,
        sent request: APIRequest,
        context: APICallContext
    ) async -> RetryDecision {
        guard case .success(let response) = outcome, isRejection(response), trusts(request, context: context),
              let rejected = token(in: request) else {
            return .doNotRetry
        }
        let refreshes = context.retriesRequested
        guard refreshes < maxRefreshes else {
            return .fail(APIError(api: request.api, reason: .unauthorized(
                message: "the server still refused the credentials after \(refreshes) refresh\(refreshes == 1 ? "" : "es")"
            )))
        }
        do {
            _ = try await tokens.refreshed(replacing: rejected, for: request.api)
        } catch {
            return .fail(error)
        }
        guard request.canBeSentAgain else {
            return .fail(APIError(api: request.api, reason: .unauthorized(
                message: "the server refused the credentials, and the request's body is read once, so it was not sent again; the token is refreshed: start the call again"
            )))
        }
        return .retry
    }

    /// The token `request` carried, when this interceptor put it there.
    private func token(in request: APIRequest) -> String? {
        guard let value = request.headerFields[headerName] else { return nil }
        guard !scheme.isEmpty else { return value }
        let prefix = scheme + " "
        return value.hasPrefix(prefix) ? String(value.dropFirst(prefix.count)) : nil
    }

    func isRejection(_ response: APIResponse) -> Bool {
        if response.httpStatus == .unauthorized || response.grpcStatus == .unauthenticated { return true }
        guard !rejectingRPCCodes.isEmpty else { return false }
        let reply = JSONSlices(response.body)
        guard let error = (try? reply.members())??.last(where: { $0.key == "error" }) else { return false }
        let object = JSONSlices(reply[error.value])
        guard let code = (try? object.members())??.last(where: { $0.key == "code" }).flatMap({ Int(object.text(of: $0.value)) }) else { return false }
        return rejectingRPCCodes.contains(code)
    }
}

/// The current token, and the one fetch in progress (the first token, or a refresh) that every
/// call refused with the same token waits for (single flight). A waiter that is cancelled, or
/// whose call's deadline passes, stops waiting at once; the fetch goes on for the others.
actor TokenStore {
    nonisolated let provider: any TokenProvider
    private var token: String?
    private var pending: Task<String, any Error>?
    private(set) var refreshes = 0

    init(provider: any TokenProvider) {
        self.provider = provider
    }

    func current(for api: String) async throws(APIError) -> String {
        if let token { return token }
        return try await value(of: pending ?? fetch { try await $0.initialToken() }, api: api)
    }

    /// The current token, when there is one; else nil, with the first token's fetch started, so
    /// that a call which must be sent after all waits less for it.
    func tokenAtHand() -> String? {
        if let token { return token }
        if pending == nil { _ = fetch { try await $0.initialToken() } }
        return nil
    }

    /// A token newer than `rejected`: the one another call already got, the refresh in flight,
    /// or a refresh this call starts.
    func refreshed(replacing rejected: String, for api: String) async throws(APIError) -> String {
        if let token, token != rejected { return token }
        if let pending { return try await value(of: pending, api: api) }
        refreshes += 1
        return try await value(of: fetch { try await $0.refreshToken(replacing: rejected) }, api: api)
    }

    /// Starts a fetch that every caller shares, and settles the store when it ends, whoever waits.
    private func fetch(_ get: @escaping @Sendable (any TokenProvider) async throws -> String) -> Task<String, any Error> {
        let task = Task { [provider] in try await get(provider) }
        pending = task
        Task { settle(task, with: await task.result) }
        return task
    }

    private func settle(_ task: Task<String, any Error>, with result: Result<String, any Error>) {
        guard pending == task else { return }
        pending = nil
        if case .success(let value) = result { token = value }
    }

    private func value(of task: Task<String, any Error>, api: String) async throws(APIError) -> String {
        let outcome = OnceResult<String>()
        Task { outcome.resolve(await task.result) }
        do {
            let value = try await withTaskCancellationHandler {
                try await outcome.value
            } onCancel: {
                outcome.resolve(.failure(CancellationError()))
            }
            settle(task, with: .success(value))
            return value
        } catch is CancellationError {
            throw APIError(api: api, reason: .cancelled)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(api: api, reason: .unauthorized(message: "cannot get a token: \(error)"), underlying: error)
        }
    }
}
