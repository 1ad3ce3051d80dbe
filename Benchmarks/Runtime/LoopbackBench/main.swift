import BenchSupport
import Foundation

// Loopback throughput (BENCHMARKS.md): GET and POST through the manager against raw
// AsyncHTTPClient and, on the URLSession transport, against raw URLSession; gRPC unary through the manager against a raw grpc-swift 2 client, each at
// concurrency 1 and 32; then JSON-RPC: 100 `add` calls in one batch against 100 single calls.
// The servers run in a child process (this program with `serve`), so the CPU time per call
// reported is the client side's alone.
//
//     swift run -c release --package-path Benchmarks LoopbackBench [calls at 1] [calls at 32] [rounds]
//
// LOOPBACK_ONLY=<text> runs only the comparisons whose name contains the text, LOOPBACK_SIDE=ours
// or =peer only one side of each, and LOOPBACK_SERVER_CPUS=<list> pins the server process with
// taskset (for profiling).

if CommandLine.arguments.dropFirst().first == "serve" {
    try await Servers.serve()
    exit(0)
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let sequentialCalls = arguments.first ?? 1_000
let concurrentCalls = arguments.dropFirst().first ?? 5_000
let rounds = arguments.dropFirst(2).first ?? 11

let only = ProcessInfo.processInfo.environment["LOOPBACK_ONLY"]

let servers = try ServerProcess.start()
guard let httpPort = servers.ports["http"], let grpcPort = servers.ports["grpc"] else {
    throw WrongAnswer(description: "the server process did not say where it listens: \(servers.ports)")
}
let clients = try Clients(httpPort: httpPort, grpcPort: grpcPort)

print("Loopback throughput, \(rounds) rounds (\(sequentialCalls) calls a side a round at concurrency 1, \(concurrentCalls) at 32), both sides each round, which goes first alternating:")
print("")
print(Comparison.header)
for width in [1, 32] {
    let calls = width == 1 ? sequentialCalls : concurrentCalls
    for (name, ours, peer) in [
        ("REST GET (AsyncHTTPClient)", clients.managerGET(), clients.rawGET),
        ("REST POST (AsyncHTTPClient)", clients.managerPOST(), clients.rawPOST),
        ("REST GET (URLSession)", clients.managerGET(clients.managerOverURLSession), clients.urlSessionGET),
        ("REST POST (URLSession)", clients.managerPOST(clients.managerOverURLSession), clients.urlSessionPOST),
        ("gRPC unary (grpc-swift)", clients.managerUnary, clients.rawUnary),
    ] where only.map(name.contains) ?? true {
        let comparison = try await compare(name, ours: ours, peer: peer, calls: calls, width: width, rounds: rounds)
        print(comparison.row)
    }
}

if only != nil {
    try await clients.shutdown()
    servers.stop()
    exit(0)
}

// JSON-RPC: the time of 100 calls as one batch, as 100 calls one after another, and as 100 calls
// 32 at a time. Each round is `groups` groups of 100.
let groups = max(sequentialCalls / 100, 5)
let batchArm = Arm(name: "batch") { number in try await clients.batchOfAdds(number) }
_ = try await run(batchArm, calls: 5, width: 1)
_ = try await run(clients.singleAdd, calls: 500, width: 1)
var batched: [Double] = [], sequential: [Double] = [], concurrent: [Double] = []
for _ in 0..<rounds {
    batched.append(try await run(batchArm, calls: groups, width: 1).callsPerSecond * 100)
    sequential.append(try await run(clients.singleAdd, calls: groups * 100, width: 1).callsPerSecond)
    concurrent.append(try await run(clients.singleAdd, calls: groups * 100, width: 32).callsPerSecond)
}
print("")
print("JSON-RPC `add`, median of \(rounds) rounds of \(groups * 100) calls:")
print("")
print("| sent as | calls/s | ms per 100 calls | batch is faster by |")
print("|---|---:|---:|---:|")
for (name, values) in [("one batch of 100", batched), ("100 single calls, one after another", sequential), ("100 single calls, 32 at a time", concurrent)] {
    let callsPerSecond = median(values)
    print(String(format: "| %@ | %.0f | %.2f | %.1f× |", name, callsPerSecond, 100_000 / callsPerSecond, median(batched) / callsPerSecond))
}

try await clients.shutdown()
servers.stop()
