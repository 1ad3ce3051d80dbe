@testable import APIRuntime
import APITestSupport
import Foundation
import Testing

@Suite("The table of calls in flight")
struct InFlightRequestsTests {
    /// Admits a leader, runs its work in a task, and has the shared call cancel it when abandoned
    /// with a closure that removes it from the table, both capturing the shared call as the
    /// manager's do; finishes it, and returns a weak reference to the shared call.
    static func finishedCall(workFinishesFirst: Bool) async -> () -> SharedCall? {
        let table = InFlightRequests()
        let call = DuplicateKey(identity: "call", account: nil, credentials: nil, isRevalidation: false)
        guard case .leader(let shared) = table.admit(call, coalescing: true) else {
            Issue.record("the first call is not the leader")
            return { nil }
        }
        weak let weakShared = shared
        let request = APIRequest(api: "Call", method: .get, url: URL(string: "https://h/a")!, timeout: .seconds(1))
        let answered = AnsweredRequest(response: APIResponse(status: .ok), request: OutgoingRequest(request: request, identity: "", credentials: nil, validators: [:]))
        let work = Task { table.finish(call, shared, with: .success(answered)) }
        if workFinishesFirst { await work.value }
        shared.cancelWhenAbandoned(work) { [table] in table.abandon(call, shared) }
        await work.value
        return { weakShared }
    }

    @Test("A finished shared call is freed, with its work's task, whichever ends first", arguments: [false, true])
    func finishedCallIsFreed(workFinishesFirst: Bool) async {
        let shared = await Self.finishedCall(workFinishesFirst: workFinishesFirst)
        #expect(shared() == nil, "the shared call keeps itself alive, and with it its work's task")
    }
}
