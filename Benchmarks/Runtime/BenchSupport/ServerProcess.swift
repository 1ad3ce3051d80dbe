import Foundation

/// This program run again as `<program> serve`, in a process of its own, so that the parent's CPU
/// time and memory are the clients' alone; it stops when its stdin closes. Its first line of
/// output says where its servers listen: `http=<port> grpc=<port>`.
public struct ServerProcess {
    /// The ports by name, from that first line.
    public let ports: [String: Int]
    private let process: Process
    private let input: Pipe

    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public static func start() throws -> ServerProcess {
        let process = Process()
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if let cpus = ProcessInfo.processInfo.environment["LOOPBACK_SERVER_CPUS"] {
            // Pinned (for profiling): `taskset -c <cpus> LoopbackBench serve`.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["-c", cpus, executable.path, "serve"]
        } else {
            process.executableURL = executable
            process.arguments = ["serve"]
        }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()

        // The first line says where the servers listen: `http=<port> grpc=<port>`.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "the server process ended before it listened") }
            line.append(chunk)
        }
        let ports = String(decoding: line, as: UTF8.self)
            .split(whereSeparator: \.isWhitespace)
            .reduce(into: [String: Int]()) { ports, field in
                let parts = field.split(separator: "=")
                if parts.count == 2 { ports[String(parts[0])] = Int(parts[1]) }
            }
        guard !ports.isEmpty else {
            throw Failure(description: "the server process said \(String(decoding: line, as: UTF8.self))")
        }
        return ServerProcess(ports: ports, process: process, input: input)
    }

    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
