import APIWireFormat
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

/// Several JSON-RPC calls sent in one HTTP request, as a JSON array (section 6 of the spec).
///
/// ```swift
/// let batch = JSONRPCBatch()
/// let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
/// let difference = batch.add(SubtractAPI(minuend: 42, subtrahend: 23))
/// batch.add(NotifyHelloAPI(value: 7))            // a notification: no reply awaited
/// try await batch.send()
/// let total = try sum.get()                      // each call has its own result or error
/// ```
///
/// Replies are matched by id, in whatever order they come. One call's error does not fail the
/// others. `send()` throws only when the batch as a whole fails (transport, an unreadable reply,
/// or one error object for the whole batch); every call then carries that error too.
///
/// The batch is one HTTP request, so its members must agree on what one request can carry: a
/// member whose URL or headers differ from the first member's fails alone with
/// `.invalidRequest`. The rest share the strictest of their settings: the shortest timeout, a
/// retry only when every member's policy is the same and allows it (the whole batch is sent
/// again), an interceptor skipped only when every member skips it, and each member's own rate
/// limit. Interceptors and metrics see the request as the API `JSONRPCBatch`; `cancel(tag:)`
/// with any member's tag cancels the batch.
public final class JSONRPCBatch: Sendable {
    /// A member's result, once the batch has run.
    public typealias Entry<Response: Sendable> = BatchEntry<Response>

    /// What the batch needs of each call, with its types erased.
    private struct Member: Sendable {
        var definition: APIDefinition
        var tags: Set<String>
        /// The member's call planned on its own: its envelope, endpoint, timeout and policies.
        var plan: @Sendable (APIManager) throws(APIError) -> CallPlan
        var deliver: @Sendable (Result<Data, APIError>, HTTPFields) -> Void
    }

    /// The manager that sends the batch.
    public let manager: APIManager
    private let members = NIOLockedValueBox<[Member]>([])

    /// An empty batch that `manager` will send.
    public init(manager: APIManager = .shared) {
        self.manager = manager
    }

    /// Adds a JSON-RPC API to the batch and returns the handle its result will arrive in.
    @discardableResult
    public func add<Response>(_ api: BaseAPI<Response>) -> Entry<Response> {
        let entry = Entry<Response>(api: api.definition.name)
        let call = api.call
        let definition = api.definition
        let member = Member(
            definition: definition,
            tags: call.options.tags.union(definition.tags),
            plan: { manager throws(APIError) -> CallPlan in try manager.plan(call) },
            deliver: { [manager] result, headerFields in
                // A member that succeeded removes the cached replies its `invalidates:` names, as
                // it would sent alone.
                if case .success = result { manager.invalidate(after: definition) }
                entry.deliver(result.flatMap { data in
                    Result { () throws(APIError) -> Response in
                        try api.responseDecoder.decodeWhole(data, response: APIResponse(status: .ok, headerFields: headerFields), api: api.definition.name)
                    }
                })
            }
        )
        members.withLockedValue { $0.append(member) }
        return entry
    }

    /// Sends every call added so far in one HTTP request and delivers each its result.
    public func send() async throws(APIError) {
        let members = self.members.withLockedValue { $0 }
        guard !members.isEmpty else {
            throw APIError(api: Self.api, reason: .invalidRequest(message: "a batch needs at least one call"))
        }

        // Plan every call; one that cannot be planned, or cannot share the request, fails alone.
        var sent: [(member: Member, call: RPCCall, plan: CallPlan)] = []
        for member in members {
            do throws(APIError) {
                let plan = try member.plan(manager)
                guard let call = plan.rpc, plan.delegate is JSONRPC else {
                    throw APIError(api: member.definition.name, reason: .invalidRequest(message: "only JSON-RPC calls can be sent in a batch"))
                }
                if let first = sent.first?.plan.request, !Self.sameEndpoint(first, plan.request) {
                    throw APIError(api: member.definition.name, reason: .invalidRequest(
                        message: "a batch goes to one endpoint: \(plan.request.url?.absoluteString ?? "") is not \(first.url?.absoluteString ?? "")"
                    ))
                }
                if let first = sent.first?.plan.request, !Self.sameFields(first.headerFields, plan.request.headerFields) {
                    throw APIError(api: member.definition.name, reason: .invalidRequest(
                        message: "a batch sends one set of headers, and this call's differ from the first call's"
                    ))
                }
                sent.append((member, call, plan))
            } catch {
                member.deliver(.failure(error), [:])
            }
        }
        guard !sent.isEmpty else { return }

        var body = Data("[".utf8)
        body.append(contentsOf: sent.compactMap(\.plan.request.body).joined(separator: Data(",".utf8)))
        body.append(Data("]".utf8))
        let plan = batchPlan(of: sent.map(\.plan), body: body)
        let tags = sent.reduce(into: Set<String>()) { $0.formUnion($1.member.tags) }
        let outcome = await manager.running.run(tags: tags) { [manager] task in
            await Result { () async throws(APIError) in try await manager.perform(plan, in: task) }
        }
        switch outcome {
        case .success(let response):
            try deliver(response, to: sent.map { ($0.member, $0.call) })
        case .failure(let error):
            for item in sent { item.member.deliver(.failure(error), [:]) }
            throw error
        }
    }

    /// The name interceptors, logs, metrics and batch-wide errors give a batch.
    static let api = "JSONRPCBatch"

    /// The batch's plan: the first member's, sent to its endpoint with its session, under the
    /// strictest settings the members share, with the members' envelopes as one array for body.
    private func batchPlan(of members: [CallPlan], body: Data) -> CallPlan {
        let first = members[0]
        // The whole batch is sent again only when every member allows it, under one policy.
        let retry = members.allSatisfy({ $0.retry == first.retry }) ? first.retry : RetryPolicy.none
        let skipped = members.dropFirst().reduce(Set(first.definition.skippedInterceptors)) { $0.intersection($1.definition.skippedInterceptors) }
        // The token goes with the batch only as every member's manifest would let it go alone.
        let authenticated: Bool? = members.contains { $0.definition.authenticated == false } ? false
            : members.allSatisfy { $0.definition.authenticated == true } ? true : nil
        let definition = APIDefinition(
            name: Self.api, wire: .jsonRPC(JSONRPCMethod("batch", path: first.definition.path)), retry: retry,
            skippedInterceptors: skipped.sorted(), authenticated: authenticated, defaults: first.definition.defaults
        )
        let earliest = members.min { $0.deadline < $1.deadline } ?? first
        // One token from each bucket any member counts in: the batch is one request.
        var buckets: [String: RateLimitBucket] = [:]
        for bucket in members.flatMap(\.rateLimits) { buckets[bucket.key] = bucket }

        var plan = first
        plan.caller = .batch(members)
        plan.definition = definition
        plan.delegate = nil
        plan.rpc = nil
        plan.request.api = Self.api
        plan.request.method = .post
        plan.request.body = body
        plan.request.headerFields[.contentType] = "application/json"
        plan.request.timeout = earliest.timeout
        plan.request.deadline = earliest.deadline
        plan.unwrappedBody = body
        plan.callIdentity = ""
        plan.context.definition = definition
        plan.context.kind = .jsonRPC
        plan.context.rpc = nil
        plan.deadline = earliest.deadline
        plan.timeout = earliest.timeout
        plan.duplicates = .allow
        plan.retry = retry
        plan.rateLimits = buckets.keys.sorted().compactMap { buckets[$0] }
        plan.cache = nil
        return plan
    }

    /// Whether two requests go to the same URL.
    private static func sameEndpoint(_ a: APIRequest, _ b: APIRequest) -> Bool {
        a.head.scheme == b.head.scheme && a.head.authority == b.head.authority && a.head.path == b.head.path
    }

    /// The same headers, the content type aside (the batch sets its own).
    private static func sameFields(_ a: HTTPFields, _ b: HTTPFields) -> Bool {
        let a = a.filter { $0.name != .contentType }, b = b.filter { $0.name != .contentType }
        return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    private func deliver(_ response: APIResponse, to sent: [(member: Member, call: RPCCall)]) throws(APIError) {
        let headers = response.headerFields
        let awaiting = sent.filter { !$0.call.isNotification }
        for item in sent where item.call.isNotification {
            item.member.deliver(response.isSuccess ? .success(Data()) : .failure(
                APIError(api: item.call.definition.name, reason: .httpStatus(code: response.httpStatus?.code ?? 0, body: response.body))
            ), headers)
        }
        // A batch of notifications only: the server sends nothing back (spec, section 6).
        guard let firstAwaiting = awaiting.first else { return }

        let batch = JSONSlices(response.body)
        let elements: [Range<Int>]?
        do {
            elements = try batch.elements()
        } catch {
            failAll(awaiting, with: { JSONRPC.unreadable(response, for: $0) }, headers)
            throw JSONRPC.unreadable(response, for: firstAwaiting.call)
        }
        guard let elements else {
            // One response object for the whole batch: typically -32700 or -32600 with a null id.
            let members = (try? batch.members()) ?? nil
            func error(for call: RPCCall) -> APIError {
                if case .failure(let error) = JSONRPC.checkingStatus(JSONRPC.outcome(of: members, in: batch, for: call), of: response, for: call) { return error }
                return call.invalidResponse("a batch must be answered with an array, found a single result")
            }
            failAll(awaiting, with: error, headers)
            throw error(for: firstAwaiting.call)
        }
        // Each response object read once, and filed under its id.
        typealias Reply = (object: JSONSlices, members: [JSONSlices.Member]?)
        var byID: [Int64: Reply] = [:]
        var repeatedIDs: Set<Int64> = []
        var unattributed: [Reply] = []
        for range in elements {
            let object = JSONSlices(batch[range])
            let members = (try? object.members()) ?? nil
            if let id = members?.last(where: { $0.key == "id" }).flatMap({ Int64(object.text(of: $0.value)) }) {
                if byID.updateValue((object, members), forKey: id) != nil { repeatedIDs.insert(id) }
            } else {
                unattributed.append((object, members))
            }
        }
        for item in awaiting {
            let outcome: Result<Data, APIError>
            if let id = item.call.id, repeatedIDs.contains(Int64(id)) {
                // Which of two answers is this call's cannot be told: neither is taken.
                outcome = .failure(item.call.invalidResponse("the batch reply has more than one response with id \(id)"))
            } else if let id = item.call.id, let reply = byID[Int64(id)] {
                outcome = JSONRPC.outcome(of: reply.members, in: reply.object, for: item.call)
            } else if let reply = unattributed.first(where: { $0.members?.contains { $0.key == "error" } == true }) {
                // An error with a null id: the server could not tell which call it was about.
                outcome = JSONRPC.outcome(of: reply.members, in: reply.object, for: item.call)
            } else {
                outcome = .failure(item.call.invalidResponse("the batch reply has no response with id \(item.call.id ?? 0)"))
            }
            item.member.deliver(JSONRPC.checkingStatus(outcome, of: response, for: item.call), headers)
        }
    }

    private func failAll(_ items: [(member: Member, call: RPCCall)], with error: (RPCCall) -> APIError, _ headers: HTTPFields) {
        for item in items { item.member.deliver(.failure(error(item.call)), headers) }
    }
}
