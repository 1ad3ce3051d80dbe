import BenchSupport
import Foundation

// Large transfers (BENCHMARKS.md): a download to a file and an upload from a file, through the
// manager on each HTTP transport against the same transport's raw client, on a loopback server in
// a child process. Reports throughput and how far this process's resident memory rose during each.
//
//     swift run -c release --package-path Benchmarks TransferBench [MiB] [rounds]

if CommandLine.arguments.dropFirst().first == "serve" {
    try await BlobServer.serve()
    exit(0)
}

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let size = Int64(arguments.first ?? 1024) << 20
let rounds = arguments.dropFirst().first ?? 3

let server = try ServerProcess.start()
guard let port = server.ports["http"] else { throw ServerProcess.Failure(description: "no http port") }
let arms = try TransferArms(baseURL: "http://127.0.0.1:\(port)", size: size)

print("Transfers of \(size >> 20) MiB on loopback, median of \(rounds) rounds (each round runs both sides, which goes first alternating):")
print("")
print("| transfer | transport | ours MB/s | raw MB/s | ours ÷ raw | ours: memory growth, MiB | raw: memory growth, MiB |")
print("|---|---|---:|---:|---:|---:|---:|")
for (transfer, transport, ours, raw) in arms.comparisons {
    var oursRuns: [Transfer] = [], rawRuns: [Transfer] = [], ratios: [Double] = []
    for round in 0..<rounds {
        let first = round % 2 == 0
        let a = try await measure(first ? ours : raw, bytes: size)
        let b = try await measure(first ? raw : ours, bytes: size)
        let (o, r) = first ? (a, b) : (b, a)
        oursRuns.append(o)
        rawRuns.append(r)
        ratios.append(o.megabytesPerSecond / r.megabytesPerSecond)
    }
    print(String(
        format: "| %@ | %@ | %.0f | %.0f | %.2f× | %.1f | %.1f |",
        transfer, transport, median(oursRuns.map(\.megabytesPerSecond)), median(rawRuns.map(\.megabytesPerSecond)),
        median(ratios), oursRuns.map(\.memoryGrowthMiB).max() ?? .nan, rawRuns.map(\.memoryGrowthMiB).max() ?? .nan
    ))
}
print("")
print("Memory growth is the highest resident size seen during a transfer (sampled every 5 ms) less the size before it, the worst of the rounds.")

await arms.shutdown()
server.stop()
