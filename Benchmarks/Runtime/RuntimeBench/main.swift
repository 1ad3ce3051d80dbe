import APIDiskCache
import APIRuntime
import BenchClient
import BenchSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import PeerClient

// Runtime overhead: calls per second of the same GET (a path parameter, two optional query
// parameters, a 4-field JSON model) through our manager and through swift-openapi-runtime's
// generated client, each with a transport that answers at once and one pass-through interceptor
// (middleware). Our call also goes through the frequency limiter (`frequency: reject`).
// Then resident memory after 10,000 and after 100,000 calls through the manager; then cache hits
// (`GetCachedItem`, `cache: { ttl: 3600 }`) from memory and from disk against the same call sent
// to the transport that answers at once, and the memory cache after 100,000 distinct replies.
//
//     swift run -c release --package-path Benchmarks RuntimeBench [calls per round] [rounds]

let reply = Data(#"{"id":7,"name":"Widget","price":9.5,"tags":["a","b"]}"#.utf8)

// MARK: Ours

struct AnswerAtOnce: APIRuntime.HTTPTransport {
    func send(_ request: HTTPRequest, body: APIRuntime.HTTPBody?) async throws -> (HTTPResponse, APIRuntime.HTTPBody) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), APIRuntime.HTTPBody(reply))
    }
    func shutdown() async {}
}

struct PassThrough: APIInterceptor {
    func intercept(
        _ request: APIRequest, context: APICallContext,
        next: () async throws(APIError) -> APIResponse
    ) async throws(APIError) -> APIResponse {
        try await next()
    }
}

var configuration = APIManager.Configuration()
configuration.httpTransport = .http(name: "answer-at-once") { _, _ in AnswerAtOnce() }
configuration.interceptors = [PassThrough()]
let manager = APIManager(configuration: configuration)

func oursCall() async throws -> Int {
    try await GetItemAPI(id: 7, limit: 10).using(manager).start().id
}

// MARK: The peer

struct PeerAnswerAtOnce: ClientTransport {
    func send(_ request: HTTPRequest, body: OpenAPIRuntime.HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), OpenAPIRuntime.HTTPBody(reply))
    }
}

struct PeerPassThrough: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: OpenAPIRuntime.HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, OpenAPIRuntime.HTTPBody?, URL) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?)
    ) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?) {
        try await next(request, body, baseURL)
    }
}

let peer = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: PeerAnswerAtOnce(), middlewares: [PeerPassThrough()])

func peerCall() async throws -> Int {
    let output = try await peer.getItem(path: .init(id: 7), query: .init(limit: 10))
    return try output.ok.body.json.id
}

// MARK: Measuring

func callsPerSecond(_ calls: Int, _ call: () async throws -> Int) async throws -> Double {
    try await measured(calls, call).callsPerSecond
}

/// The rate of `calls` sequential calls, and what each cost in CPU and context switches.
func measured(_ calls: Int, _ call: () async throws -> Int) async throws -> (callsPerSecond: Double, cost: CostPerCall) {
    let clock = ContinuousClock()
    let before = ResourceUse.now()
    let start = clock.now
    var sum = 0
    for _ in 0..<calls { sum &+= try await call() }
    let elapsed = clock.now - start
    let use = ResourceUse.now() - before
    precondition(sum == 7 * calls, "a call returned the wrong model")
    return (Double(calls) / elapsed.seconds, CostPerCall(use: use, calls: calls))
}

/// The median cost of a call over `rounds`, with its heap allocations counted in a run of their own.
func costPerCall(_ rounds: [CostPerCall], _ call: () async throws -> Int) async throws -> CostPerCall {
    let calls = 10_000
    let counted = try await Allocations.counting { _ = try await callsPerSecond(calls, call) }
    return CostPerCall.median(rounds).adding(counted, calls: calls)
}

func describe(_ cost: CostPerCall) -> String {
    String(
        format: "CPU %.2f µs, context switches %.3f + %.3f, %.1f heap allocations (%.0f bytes) a call",
        cost.cpuMicroseconds, cost.voluntarySwitches, cost.involuntarySwitches, cost.allocations, cost.allocatedBytes
    )
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let callsPerRound = arguments.first ?? 100_000
let rounds = arguments.dropFirst().first ?? 5

// RUNTIME_ONLY=ours or =peer runs only that side's rounds, without warm-up or the memory part:
// for profiling one side (`perf record`) or comparing two builds by alternating runs.
if let only = ProcessInfo.processInfo.environment["RUNTIME_ONLY"] {
    var rates: [Double] = []
    for _ in 0..<rounds { rates.append(try await callsPerSecond(callsPerRound, only == "peer" ? peerCall : oursCall)) }
    print(String(format: "%@: %.0f calls per second (median of %d rounds of %d)", only, median(rates), rounds, callsPerRound))
    exit(0)
}

// Warm up both, then alternate rounds so that machine noise falls on both alike.
_ = try await callsPerSecond(10_000, oursCall)
_ = try await callsPerSecond(10_000, peerCall)
var ours: [(callsPerSecond: Double, cost: CostPerCall)] = []
var theirs: [(callsPerSecond: Double, cost: CostPerCall)] = []
for _ in 0..<rounds {
    ours.append(try await measured(callsPerRound, oursCall))
    theirs.append(try await measured(callsPerRound, peerCall))
}
let oursCost = try await costPerCall(ours.map(\.cost), oursCall)
let theirCost = try await costPerCall(theirs.map(\.cost), peerCall)
print("Runtime overhead, \(rounds) rounds of \(callsPerRound) sequential calls, median calls per second:")
print(String(format: "  apigen manager:          %9.0f   %@", median(ours.map(\.callsPerSecond)), describe(oursCost)))
print(String(format: "  swift-openapi-runtime:   %9.0f   %@", median(theirs.map(\.callsPerSecond)), describe(theirCost)))
print(String(format: "  ratio (ours / peer):     %9.2f", median(ours.map(\.callsPerSecond)) / median(theirs.map(\.callsPerSecond))))

// MARK: Memory

let fresh = APIManager(configuration: configuration)
func memoryCall() async throws -> Int { try await GetItemAPI(id: 7, limit: 10).using(fresh).start().id }
_ = try await callsPerSecond(10_000, memoryCall)
let after10k = residentMiB()
_ = try await callsPerSecond(90_000, memoryCall)
let after100k = residentMiB()
print(String(format: "Resident memory after 10,000 calls: %.1f MiB; after 100,000: %.1f MiB (growth %.2f MiB)", after10k, after100k, after100k - after10k))
await manager.shutdown()
await fresh.shutdown()

// MARK: Cache hits

/// A manager like the others whose replies are kept in `storage`.
func cachingManager(_ storage: CacheStorage) -> APIManager {
    var caching = APIManager.Configuration()
    caching.httpTransport = .http(name: "answer-at-once") { _, _ in AnswerAtOnce() }
    caching.interceptors = [PassThrough()]
    caching.cache = storage
    return APIManager(configuration: caching)
}

let diskFile = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-bench-\(getpid()).sqlite")
let inMemory = cachingManager(.memory())
let onDisk = cachingManager(.disk(at: diskFile))
func memoryHit() async throws -> Int { try await GetCachedItemAPI(id: 7, limit: 10).using(inMemory).start().id }
func diskHit() async throws -> Int { try await GetCachedItemAPI(id: 7, limit: 10).using(onDisk).start().id }
// The call a hit replaces: the same request, uncached, through the same kind of manager.
let sender = cachingManager(.memory())
func sentCall() async throws -> Int { try await GetItemAPI(id: 7, limit: 10).using(sender).start().id }
_ = try await callsPerSecond(10_000, memoryHit)
_ = try await callsPerSecond(2_000, diskHit)
var memoryHits: [Double] = [], diskHits: [Double] = [], sent: [Double] = []
for _ in 0..<rounds {
    memoryHits.append(try await callsPerSecond(callsPerRound, memoryHit))
    diskHits.append(try await callsPerSecond(callsPerRound / 5, diskHit))
    sent.append(try await callsPerSecond(callsPerRound, sentCall))
}
print("Cache hits, median calls per second of \(rounds) rounds:")
print(String(format: "  from memory:             %9.0f  (%.2f× the call it replaces)", median(memoryHits), median(memoryHits) / median(sent)))
print(String(format: "  from disk (SQLite):      %9.0f  (%.2f×)", median(diskHits), median(diskHits) / median(sent)))
print(String(format: "  sent, answered at once:  %9.0f  (no network: a real call is slower; see LoopbackBench)", median(sent)))
await inMemory.shutdown()
await onDisk.shutdown()
await sender.shutdown()
try? FileManager.default.removeItem(at: diskFile)

// The memory store after 100,000 distinct replies, bounded at 8 MiB.
let bound = 8 << 20
let bounded = cachingManager(.memory(maxBytes: bound))
let residentBefore = residentMiB()
for id in 0..<100_000 { _ = try await GetCachedItemAPI(id: id).using(bounded).start() }
print(String(
    format: "Memory cache after 100,000 distinct replies: %d kept, %.2f MiB of its %.0f MiB bound; resident memory grew %.1f MiB",
    bounded.cache.count, Double(bounded.cache.bytes) / 1_048_576, Double(bound) / 1_048_576, residentMiB() - residentBefore
))
await bounded.shutdown()
