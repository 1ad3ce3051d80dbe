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
    public typealias Entry<Response: Sendable> = BatchEntry<Response>

    /// What the batch needs of each call, with its types erased.
    private struct Member: Sendable {
        var definition: APIDefinition
        var tags: @Sendable () -> Set<String>
        var makeRequest: @Sendable (APIManager) throws(APIError) -> APIRequest
        var deliver: @Sendable (Result<Data, APIError>, HTTPFields) -> Void
    }

    public let manager: APIManager
    private let members = NIOLockedValueBox<[Member]>([])

    public init(manager: APIManager = .shared) {
        self.manager = manager
    }

    /// Adds a JSON-RPC API to the batch and returns the handle its result will arrive in.
    @discardableResult
    public func add<Response>(_ api: BaseAPI<Response>) -> Entry<Response> {
        let entry = Entry<Response>(api: api.definition.name)
        let member = Member(
            definition: api.definition,
            tags: { api.tags.union(api.definition.tags) },
            makeRequest: { manager throws(APIError) -> APIRequest in try api.makeRequest(for: manager) },
            deliver: { result, headerFields in
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

        // Encode every call; one that cannot be encoded, or cannot share the request, fails alone.
        var sent: [(member: Member, call: RPCCall, envelope: Data)] = []
        var template: APIRequest?
        var timeout = Duration.seconds(Int64.max)
        for member in members {
            do throws(APIError) {
                let request = try member.makeRequest(manager)
                if let template, template.url != request.url {
                    throw APIError(api: member.definition.name, reason: .invalidRequest(
                        message: "a batch goes to one endpoint: \(request.url) is not \(template.url)"
                    ))
                }
                if let template, !Self.sameFields(template.headerFields, request.headerFields) {
                    throw APIError(api: member.definition.name, reason: .invalidRequest(
                        message: "a batch sends one set of headers, and this call's differ from the first call's"
                    ))
                }
                template = template ?? request
                timeout = min(timeout, request.timeout)
                let call = RPCCall(definition: member.definition, id: member.definition.rpc?.isNotification == true ? nil : manager.nextRequestID())
                sent.append((member, call, JSONRPC.envelope(params: request.body, call: call)))
            } catch {
                member.deliver(.failure(error), [:])
            }
        }
        guard var request = template else { return }

        var body = Data("[".utf8)
        body.append(contentsOf: sent.map(\.envelope).joined(separator: Data(",".utf8)))
        body.append(Data("]".utf8))
        request.api = Self.api
        request.method = .post
        request.body = body
        request.headerFields[.contentType] = "application/json"
        request.timeout = timeout

        let definitions = sent.map(\.member.definition)
        let batch = batchDefinition(of: definitions, path: request.url.path)
        let context = APICallContext(definition: batch, rpc: nil, kind: .jsonRPC, attempt: 1, declaredBaseURL: manager.declaredBaseURL(of: definitions[0]))
        let tags = sent.reduce(into: Set<String>()) { $0.formUnion($1.member.tags()) }
        let outcome = await manager.run(tags: tags) { [manager, request] task in
            await Result { () async throws(APIError) in try await manager.send(request, context: context, members: definitions, in: task) }
        }
        switch outcome {
        case .success(let response):
            try deliver(response, to: sent)
        case .failure(let error):
            for item in sent { item.member.deliver(.failure(error), [:]) }
            throw error
        }
    }

    /// The name interceptors, logs, metrics and batch-wide errors give a batch.
    static let api = "JSONRPCBatch"

    /// The settings the batch's request goes under: the strictest its members share.
    private func batchDefinition(of members: [APIDefinition], path: String) -> APIDefinition {
        let policies = members.map { $0.retry ?? $0.defaults.retry ?? manager.configuration.retry }
        let retry = policies.allSatisfy({ $0 == policies[0] }) && zip(policies, members).allSatisfy({ $0.allows($1) }) ? policies[0] : RetryPolicy.none
        let skipped = members.dropFirst().reduce(Set(members[0].skippedInterceptors)) { $0.intersection($1.skippedInterceptors) }
        return APIDefinition(
            name: Self.api, method: .post, path: path, retry: retry,
            skippedInterceptors: skipped.sorted(),
            // Every member allows a retry, so the batch as a whole may be sent again.
            rpc: RPCMethod(name: "batch", isIdempotent: true),
            defaults: members[0].defaults
        )
    }

    /// The same headers, the content type aside (the batch sets its own).
    private static func sameFields(_ a: HTTPFields, _ b: HTTPFields) -> Bool {
        let a = a.filter { $0.name != .contentType }, b = b.filter { $0.name != .contentType }
        return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    private func deliver(_ response: APIResponse, to sent: [(member: Member, call: RPCCall, envelope: Data)]) throws(APIError) {
        let headers = response.headerFields
        let awaiting = sent.filter { !$0.call.isNotification }
        for item in sent where item.call.isNotification {
            item.member.deliver(response.status.kind == .successful ? .success(Data()) : .failure(
                APIError(api: item.call.definition.name, reason: .httpStatus(code: response.status.code, body: response.body))
            ), headers)
        }
        // A batch of notifications only: the server sends nothing back (spec, section 6).
        guard let firstAwaiting = awaiting.first else { return }

        guard let reply = JSONValue.parse(response.body) else {
            failAll(awaiting, with: { JSONRPC.unreadable(response, for: $0) }, headers)
            throw JSONRPC.unreadable(response, for: firstAwaiting.call)
        }
        switch reply {
        case .array(let replies):
            var byID: [Int64: JSONValue] = [:]
            var unattributed: [JSONValue] = []
            for element in replies {
                if case .integer(let id)? = element["id"] { byID[id] = element } else { unattributed.append(element) }
            }
            for item in awaiting {
                if let id = item.call.id, let element = byID[Int64(id)] {
                    item.member.deliver(JSONRPC.outcome(of: element, for: item.call), headers)
                } else if let element = unattributed.first(where: { $0["error"] != nil }) {
                    // An error with a null id: the server could not tell which call it was about.
                    item.member.deliver(JSONRPC.outcome(of: element, for: item.call), headers)
                } else {
                    item.member.deliver(.failure(item.call.invalidResponse("the batch reply has no response with id \(item.call.id ?? 0)")), headers)
                }
            }
        default:
            // One response object for the whole batch: typically -32700 or -32600 with a null id.
            failAll(awaiting, with: { call in
                if case .failure(let error) = JSONRPC.outcome(of: reply, for: call) { return error }
                return call.invalidResponse("a batch must be answered with an array, found a single result")
            }, headers)
            if case .failure(let error) = JSONRPC.outcome(of: reply, for: firstAwaiting.call) { throw error }
            throw firstAwaiting.call.invalidResponse("a batch must be answered with an array, found a single result")
        }
    }

    private func failAll(_ items: [(member: Member, call: RPCCall, envelope: Data)], with error: (RPCCall) -> APIError, _ headers: HTTPFields) {
        for item in items { item.member.deliver(.failure(error(item.call)), headers) }
    }
}
