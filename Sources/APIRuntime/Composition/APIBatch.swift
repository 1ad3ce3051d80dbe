import NIOConcurrencyHelpers

/// Several APIs of any kinds sent at once, each with its own result, and a policy for what one
/// failure does to the rest.
///
/// ```swift
/// let batch = APIBatch(policy: .failFast)
/// let user = batch.add(GetUserAPI(id: 7))
/// let sum = batch.add(SumAPI(a: 1, b: 2, c: 3))
/// try await batch.run()
/// print(try user.get(), try sum.get())
/// ```
public final class APIBatch: Sendable {
    /// What one failure does to the rest of the batch.
    public enum Policy: Sendable {
        /// Every call runs to its end; `run()` throws the first error after all have finished.
        case collectAll
        /// The first failure cancels the calls still running; `run()` throws it.
        case failFast
    }

    /// A call's result, once the batch has run.
    public typealias Entry<Response: Sendable> = BatchEntry<Response>

    /// What one failure does to the rest.
    public let policy: Policy
    /// Guards the calls added so far, each a closure that runs its call and delivers its result.
    private let calls = NIOLockedValueBox<[@Sendable () async -> APIError?]>([])

    /// An empty batch; every call runs to its end unless `policy` says otherwise.
    public init(policy: Policy = .collectAll) {
        self.policy = policy
    }

    /// Adds `api` to the batch; its result is in the entry once `run()` has returned.
    @discardableResult
    public func add<Response>(_ api: BaseAPI<Response>) -> Entry<Response> {
        let entry = Entry<Response>(api: api.definition.name)
        calls.withLockedValue {
            $0.append {
                do throws(APIError) {
                    entry.deliver(.success(try await api.start()))
                    return nil
                } catch {
                    entry.deliver(.failure(error))
                    return error
                }
            }
        }
        return entry
    }

    /// Runs every call concurrently, as the policy says.
    public func run() async throws(APIError) {
        let calls = self.calls.withLockedValue { $0 }
        let firstError: APIError? = await withTaskGroup(of: APIError?.self) { group in
            for call in calls {
                group.addTask { await call() }
            }
            var first: APIError?
            for await error in group {
                guard let error, first == nil else { continue }
                first = error
                if policy == .failFast { group.cancelAll() }
            }
            return first
        }
        if let firstError { throw firstError }
    }
}

extension BaseAPI {
    /// Starts this API, then the one `next` builds from its response (YTKNetwork's chain request).
    ///
    /// ```swift
    /// let posts = try await GetUserAPI(id: 7).then { user in ListPostsAPI(author: user.name) }
    /// ```
    public func then<NextResponse>(
        _ next: @Sendable (Response) throws(APIError) -> BaseAPI<NextResponse>
    ) async throws(APIError) -> NextResponse {
        let response = try await start()
        let following = try next(response)
        if following.manager === APIManager.shared, manager !== APIManager.shared {
            following.using(manager)
        }
        return try await following.start()
    }
}
