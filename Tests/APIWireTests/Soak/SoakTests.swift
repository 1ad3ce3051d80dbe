@testable import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing
import WireTestSupport

/// How many calls the soak makes (`SOAK_CALLS`); none, so no soak, unless set.
let soakCalls = ProcessInfo.processInfo.environment["SOAK_CALLS"].flatMap(Int.init) ?? 0

/// What a soak call ended with.
enum SoakOutcome: Hashable, CustomStringConvertible {
    case value, wrongValue, cancelled, timeout, transport, tls, invalidResponse, decoding, unauthorized
    case httpStatus(Int), rpcError(Int), grpcStatus(Int), other(String)

    init(_ error: any Error) {
        guard let error = error as? APIError else {
            self = error is WrongValue ? .wrongValue : .other("\(type(of: error)): \(error)")
            return
        }
        switch error.reason {
        case .cancelled: self = .cancelled
        case .timeout: self = .timeout
        case .transport: self = .transport
        case .tls: self = .tls
        case .invalidResponse: self = .invalidResponse
        case .decoding: self = .decoding
        case .unauthorized: self = .unauthorized
        case .httpStatus(let code, _): self = .httpStatus(code)
        case .rpcError(let code, _, _): self = .rpcError(code)
        case .grpcStatus(let code, _): self = .grpcStatus(code.rawValue)
        default: self = .other("\(error)")
        }
    }

    var description: String {
        switch self {
        case .httpStatus(let code): "HTTP \(code)"
        case .rpcError(let code): "RPC error \(code)"
        case .grpcStatus(let code): "gRPC status \(code)"
        case .other(let text): text
        case .value: "value"
        case .wrongValue: "wrong value"
        case .cancelled: "cancelled"
        case .timeout: "timeout"
        case .transport: "transport error"
        case .tls: "TLS error"
        case .invalidResponse: "invalid response"
        case .decoding: "decoding error"
        case .unauthorized: "unauthorized"
        }
    }
}

/// A reply that decoded but is not what the call asked for.
struct WrongValue: Error {}

/// One call of the soak: what it sends, what it should end with, and when it is cancelled.
struct SoakCall: Sendable {
    let label: String
    let expected: Set<SoakOutcome>
    let cancelAfter: Duration?
    let run: @Sendable (APIManager) async throws -> Void
}

/// The servers a soak calls.
struct SoakServers {
    let http: LoopbackServer
    let reset: RawServer
    let truncated: RawServer
    let grpc: GRPCTestServer
    /// A TLS server at `localhost` (whose settings trust its authority) that redirects every call
    /// to 127.0.0.1, whose settings are the standard ones.
    let redirecting: LoopbackServer
}

/// Thousands of calls of every kind (REST, JSON-RPC, gRPC unary and streams), 64 at a time,
/// against loopback servers that fault: 5xx, 404, garbage, slow and stalled replies and bodies,
/// replies too large to take, closed connections, truncated bodies, JSON-RPC error objects, every
/// gRPC status and passed deadlines, redirects to a host of other TLS settings; with
/// cancellations, event streams left early, gzipped downloads, storms of identical calls
/// (coalesced), cached calls (hits, stale replies refreshed in the background, cache then
/// network), cached calls of eight users at once (each with a token or a session cookie of their
/// own, whose replies must never cross) and a token that expires every 97 requests mixed in.
///
/// Every call must end exactly once, with the outcome its fault calls for (a timeout is
/// tolerated for a few, as a loaded machine may cause one); afterwards the manager's in-flight
/// table, running calls and coalesced waiters are empty and its sessions are those it had after
/// the first thousand calls. It runs when `SOAK_CALLS` says how many calls to make: `make soak`
/// makes 10,000 over each HTTP transport, which also bounds how much resident memory grows
/// after the first 1,000; CI makes 1,000 under ThreadSanitizer.
@Suite("Soak: mixed faulty calls on loopback servers", .enabled(if: soakCalls > 0))
struct SoakTests {
    static let calls = soakCalls
    static let window = 64

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Every call ends once with a typed result; the manager returns to its baseline", .timeLimit(.minutes(10)))
    func soak() async throws {
        let tokens = SoakTokens(lifetime: 97)
        let authority = try TestCertificateAuthority()
        let servers = SoakServers(
            http: try await startSoakServer(tokens: tokens),
            reset: try await RawServer.start(reply: ""),
            truncated: try await RawServer.start(reply: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\": 1"),
            grpc: try await GRPCTestServer.start(recording: false),
            redirecting: try await LoopbackServer.start(tls: try serverTLS(try authority.server()), recording: false) { request in
                Response(status: .found, headers: [.location: "https://127.0.0.1:1" + request.target])
            }
        )
        var configuration = APIManager.Configuration()
        configuration.httpTransport = testHTTPTransport
        configuration.baseURLOverrides = [
            "https://api.example.com/v1": servers.http.baseURL + "/v1",
            "https://calc.example.com/v2/jsonrpc": servers.http.baseURL + "/v2/jsonrpc",
            "grpc://localhost:50051": servers.grpc.baseURL,
            "grpc://localhost:50052": servers.grpc.baseURL,
        ]
        configuration.interceptors = [AuthenticationInterceptor(provider: tokens, maxRefreshes: 3), SoakUserCredential()]
        configuration.rateLimit = RateLimit(calls: 5000, per: .seconds(1))
        configuration.maxResponseBytes = Self.maxResponseBytes
        // As many connections as calls at once: stalled replies hold theirs until they time out,
        // and with fewer the healthy calls behind them would time out waiting for one.
        configuration.maxConnectionsByHost = ["127.0.0.1": Self.window]
        configuration.tls["localhost"] = TLSSettings(trustRoots: .certificates([try authority.identity.certificatePEM]))
        let plan = (0..<Self.calls).map { Self.call($0, servers: servers) }

        try await withManager(configuration) { manager in
            let started = ContinuousClock.now
            let warmUp = min(1000, plan.count)
            var report = try await Self.run(plan[..<warmUp], on: manager)
            try await Self.settle(manager)
            let sessions = manager.sessionCount
            let memoryAfterWarmUp = MemoryReading.now()
            report.merge(try await Self.run(plan[warmUp...], on: manager))
            try await Self.settle(manager)
            let memoryAtEnd = MemoryReading.now()
            let elapsed = ContinuousClock.now - started

            #expect(report.completions.allSatisfy { $0 == 1 }, "calls that did not end exactly once: \(report.completions.enumerated().filter { $0.element != 1 }.map(\.offset).prefix(20))")
            #expect(report.unexpected.isEmpty, "unexpected outcomes: \(report.unexpected.prefix(20))")
            #expect(report.tolerated <= plan.count / 50 + 5, "\(report.tolerated) calls timed out where they should not have")
            #expect(manager.sessionCount == sessions)
            var memory = "memory not measured"
            if let before = memoryAfterWarmUp, let after = memoryAtEnd {
                memory = "after \(warmUp) and \(plan.count) calls: resident \(mebibytes(before.resident)) and \(mebibytes(after.resident)), "
                    + "trimmed \(mebibytes(before.residentAfterTrim)) and \(mebibytes(after.residentAfterTrim))"
                // The bound catches a leak of a kilobyte a call; the cycle that kept every
                // coalesced call alive grew resident memory by 52 MiB. Swift Testing keeps a
                // backtrace of every error thrown while it runs unless
                // SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0 (as `make soak` sets), which adds about
                // 6 MiB here.
                if plan.count >= 10_000 {
                    let growth = after.residentAfterTrim - before.residentAfterTrim
                    #expect(growth < 8 * 1_048_576, "resident memory grew \(mebibytes(growth)) after the first \(warmUp) calls")
                }
            }
            let outcomes = report.outcomes.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("soak: \(plan.count) calls over \(testHTTPTransport.name) and grpc in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); \(memory); \(manager.sessionCount) sessions; \(report.tolerated) tolerated timeouts; outcomes: \(outcomes)")
        }
    }

    /// What a run of calls ended with.
    struct Report {
        var completions: [Int] = []
        var outcomes: [String: Int] = [:]
        var unexpected: [String] = []
        var tolerated = 0

        mutating func merge(_ other: Report) {
            completions += other.completions
            outcomes.merge(other.outcomes, uniquingKeysWith: +)
            unexpected += other.unexpected
            tolerated += other.tolerated
        }
    }

    /// Runs `calls`, `window` at a time, each in a task of its own (cancelled as its plan says).
    static func run(_ calls: ArraySlice<SoakCall>, on manager: APIManager) async throws -> Report {
        let completions = NIOLockedValueBox([Int](repeating: 0, count: calls.count))
        var report = Report()
        try await withThrowingTaskGroup(of: (Int, SoakOutcome, String).self) { group in
            var next = calls.startIndex
            func start() {
                guard next < calls.endIndex else { return }
                let index = next, call = calls[index], offset = index - calls.startIndex
                next += 1
                group.addTask {
                    let work = Task { () -> (SoakOutcome, String) in
                        do {
                            try await call.run(manager)
                            return (.value, "")
                        } catch {
                            return (SoakOutcome(error), "\(error)")
                        }
                    }
                    if let delay = call.cancelAfter {
                        try? await Task.sleep(for: delay)
                        work.cancel()
                    }
                    let (outcome, detail) = await work.value
                    completions.withLockedValue { $0[offset] += 1 }
                    return (index, outcome, detail)
                }
            }
            for _ in 0..<window { start() }
            while let (index, outcome, detail) = try await group.next() {
                let call = calls[index]
                report.outcomes["\(call.label) → \(outcome)", default: 0] += 1
                if !call.expected.contains(outcome) && !(call.cancelAfter != nil && outcome == .cancelled) {
                    // A loaded machine can push a call past its timeout; the token can expire
                    // again while a call refreshes it; and the gRPC server closes a connection on
                    // which clients reset many streams (HTTP/2's reset-flood protection), which
                    // fails the calls on it as UNAVAILABLE.
                    if outcome == .timeout || outcome == .unauthorized || outcome == .grpcStatus(14) {
                        report.tolerated += 1
                    } else {
                        report.unexpected.append("#\(index) \(call.label): \(outcome), expected \(call.expected) (\(detail))")
                    }
                }
                start()
            }
        }
        report.completions = completions.withLockedValue { $0 }
        return report
    }

    /// Waits for stalled server replies and every call's deadline to pass, and for the manager's
    /// tables to empty.
    static func settle(_ manager: APIManager) async throws {
        try await Task.sleep(for: max(SoakFault.stall, timeout) + .milliseconds(300))
        let deadline = ContinuousClock.now + .seconds(10)
        while manager.inFlightCount > 0 || manager.running.count > 0 || manager.coalescedWaiterCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(manager.inFlightCount == 0, "in-flight table not empty")
        #expect(manager.running.count == 0, "running calls not ended")
        #expect(manager.coalescedWaiterCount == 0, "coalesced waiters left")
    }

    /// A well-mixed number for call `index` and a salt: the plan is the same on every run.
    static func mix(_ index: Int, _ salt: UInt64) -> Int {
        var value = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ salt
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (value ^ (value >> 31)) >> 1)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    static func call(_ index: Int, servers: SoakServers) -> SoakCall {
        let choice = mix(index, 1) % 25
        let cancelAfter = mix(index, 2) % 16 == 0 ? Duration.microseconds(mix(index, 3) % 3000) : nil
        switch choice {
        case 0..<8:
            let fault = SoakFault.allCases[mix(index, 4) % SoakFault.allCases.count]
            let expected: SoakOutcome = switch fault {
            case .none, .slow: .value
            case .serverError: .httpStatus(500)
            case .notFound: .httpStatus(404)
            case .garbage: .decoding
            case .stalled, .stalledBody: .timeout
            case .oversized: .invalidResponse
            }
            return SoakCall(label: "GetUser \(fault)", expected: [expected], cancelAfter: cancelAfter) { manager in
                try await getUser(fault.rawValue * SoakFault.stride + index, baseURL: nil, manager)
            }
        case 8:
            return SoakCall(label: "GetUser, connection closed", expected: [.transport], cancelAfter: cancelAfter) { manager in
                try await getUser(index, baseURL: servers.reset.baseURL + "/v1", manager)
            }
        case 9:
            return SoakCall(label: "GetUser, body cut short", expected: [.transport, .invalidResponse, .decoding], cancelAfter: cancelAfter) { manager in
                try await getUser(index, baseURL: servers.truncated.baseURL + "/v1", manager)
            }
        case 10:
            return SoakCall(label: "Subtract", expected: [.value], cancelAfter: cancelAfter) { manager in
                let difference = try await soakTimeout(SubtractAPI(minuend: index, subtrahend: 1).using(manager)).start()
                guard difference == index - 1 else { throw WrongValue() }
            }
        case 11:
            return SoakCall(label: "Divide by zero", expected: [.rpcError(-32000)], cancelAfter: cancelAfter) { manager in
                _ = try await soakTimeout(DivideAPI(dividend: 1, divisor: 0).using(manager)).start()
            }
        case 12:
            return SoakCall(label: "Foobar (no such method)", expected: [.rpcError(-32601)], cancelAfter: cancelAfter) { manager in
                _ = try await soakTimeout(FoobarAPI().using(manager)).start()
            }
        case 13:
            return SoakCall(label: "SayHello", expected: [.value], cancelAfter: cancelAfter) { manager in
                let reply = try await soakTimeout(SayHelloAPI { $0.name = "Ada" }.using(manager)).start()
                guard reply.message == "Hello Ada" else { throw WrongValue() }
            }
        case 14:
            let code = 1 + mix(index, 5) % 16
            // UNAUTHENTICATED makes the authentication interceptor refresh until it gives up.
            let expected: Set<SoakOutcome> = switch code {
            case 16: [.grpcStatus(16), .unauthorized]
            default: [.grpcStatus(code)]
            }
            return SoakCall(label: "SayHello status \(code)", expected: expected, cancelAfter: cancelAfter) { manager in
                _ = try await soakTimeout(SayHelloAPI { $0.name = "fail:\(code):soak" }.using(manager)).start()
            }
        case 15:
            return SoakCall(label: "SayHello, deadline passes", expected: [.timeout], cancelAfter: cancelAfter) { manager in
                let api = SayHelloAPI { $0.name = "slow:\(timeout.components.seconds * 1000 + 500)" }.using(manager)
                api.options.timeout = timeout
                _ = try await api.start()
            }
        case 16, 17:
            return SoakCall(label: "ListFeatures stream", expected: [.value], cancelAfter: cancelAfter) { manager in
                var count = 0
                for try await _ in try await soakTimeout(ListFeaturesAPI(rectangle(from: 0, to: 4)).using(manager)).start() { count += 1 }
                guard count == 4 else { throw WrongValue() }
            }
        case 18:
            // A cached API: hits, stale replies served while a refresh runs in the background,
            // misses coalesced, and now and then the cached value followed by the network's.
            let id = mix(index, 6) % 32
            let sequence = mix(index, 7) % 4 == 0
            return SoakCall(label: sequence ? "GetUser cached, cache then network" : "GetUser cached", expected: [.value], cancelAfter: cancelAfter) { manager in
                let api = soakTimeout(cachedUser(id).using(manager))
                if sequence {
                    for try await reply in api.cacheThenNetwork() where reply.value.id != id { throw WrongValue() }
                } else {
                    guard try await api.start().id == id else { throw WrongValue() }
                }
            }
        case 23, 24:
            // Eight users call the same cached API at once, each with a token of their own or a
            // session cookie: every reply must be the caller's, never another user's.
            let byCookie = choice == 24
            let user = "user\(mix(index, 8) % 8)"
            let id = mix(index, 9) % 4
            return SoakCall(label: byCookie ? "GetUser cached, per session cookie" : "GetUser cached, per user token", expected: [.value], cancelAfter: cancelAfter) { manager in
                try await SoakUser.$current.withValue((user, byCookie)) {
                    let reply = try await soakTimeout(cachedUser(id).using(manager)).start()
                    guard reply.id == id, reply.name == user else { throw WrongValue() }
                }
            }
        case 20:
            return SoakCall(label: "UserActivity, left after two events", expected: [.value], cancelAfter: cancelAfter) { manager in
                var count = 0
                for try await _ in try await soakTimeout(UserActivityAPI().using(manager)).start() {
                    count += 1
                    if count == 2 { break }
                }
                guard count == 2 else { throw WrongValue() }
            }
        case 22:
            // Refused before it is followed, as the transport would reach 127.0.0.1 with
            // localhost's settings; Linux's URLSession refuses localhost's settings themselves.
            #if canImport(FoundationNetworking)
            let expected: Set<SoakOutcome> = testHTTPTransport.name == "urlsession" ? [.tls] : [.invalidResponse]
            #else
            let expected: Set<SoakOutcome> = [.invalidResponse]
            #endif
            return SoakCall(label: "GetUser, redirected across TLS settings", expected: expected, cancelAfter: cancelAfter) { manager in
                try await getUser(index, baseURL: servers.redirecting.baseURL + "/v1", manager)
            }
        case 21:
            return SoakCall(label: "DownloadDocument, gzipped", expected: [.value], cancelAfter: cancelAfter) { manager in
                let destination = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString).pdf")
                defer { try? FileManager.default.removeItem(at: destination) }
                let saved = try await soakTimeout(DownloadDocumentAPI(name: "report.pdf", destination: destination).using(manager)).start()
                guard try Data(contentsOf: saved) == soakDocument else { throw WrongValue() }
            }
        default:
            // Storms: calls in the same block of 256 ask the same sum, and the API coalesces
            // identical calls in flight.
            let a = index / 256
            return SoakCall(label: "Sum storm", expected: [.value], cancelAfter: cancelAfter) { manager in
                let sum = try await soakTimeout(SumAPI(a: a, b: 1, c: 1).using(manager)).start()
                guard sum == a + 2 else { throw WrongValue() }
            }
        }
    }

    /// Every soak call has a short timeout: grpc-swift races a sleep against each call's deadline,
    /// and on Linux a cancelled sleep keeps its timer (about 3 KiB with its task) until the time it
    /// was set for. Memory measured after the timeouts have passed shows what calls leave behind,
    /// not what is still waiting to be freed. `SOAK_TIMEOUT` (seconds) lengthens it where every
    /// call runs several times slower, as under ThreadSanitizer: there a healthy call that retries
    /// can take longer than 2 s, and the run would count it as a timeout.
    static let timeout = Duration.seconds(ProcessInfo.processInfo.environment["SOAK_TIMEOUT"].flatMap(Int.init) ?? 2)

    /// The largest reply the soak's manager takes: the `oversized` fault sends more.
    static let maxResponseBytes = 256 << 10

    static func soakTimeout<Response, API: BaseAPI<Response>>(_ api: API) -> API {
        api.options.timeout = timeout
        return api
    }

    /// `GetUser` with a cache: fresh for a second, then served while it is refreshed.
    static let cachedUserDefinition = APIDefinition(
        name: "GetUserCached", wire: GetUserAPI.definition.wire, tags: ["users"],
        cache: CacheSettings(ttl: 1, staleWhileRevalidate: 1, staleIfError: 60), defaults: GetUserAPI.definition.defaults
    )

    static func cachedUser(_ id: Int) -> BaseAPI<User> {
        BaseAPI(definition: cachedUserDefinition, response: .json, request: RequestBuilder().path("id", id))
    }

    static func getUser(_ id: Int, baseURL: String?, _ manager: APIManager) async throws {
        let api = GetUserAPI(id: id).using(manager)
        if let baseURL { api.options.baseURL = baseURL }
        let user = try await soakTimeout(api).start()
        guard user.id == id else { throw WrongValue() }
    }
}
