import Foundation

/// Runs the built `apigen` executable, as a user would, and captures what it prints.
enum APIGenBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `apigen` sits beside the test bundle in the build folder (the test target depends on it).
    static var url: URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("apigen")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Starts apigen without waiting for it, its output discarded. `environment` replaces the
    /// variables it names.
    static func start(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Process {
        let process = try self.process(arguments, in: directory, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs apigen to its end. `environment` replaces the variables it names (nil removes one);
    /// `executable` is another copy of apigen to run.
    static func run(_ arguments: [String], in directory: URL, environment: [String: String?] = [:], executable: URL? = nil) throws -> Result {
        let process = try self.process(arguments, in: directory, environment: environment, executable: executable)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// apigen (or `executable`) set up to run `arguments` in `directory`, not yet started.
    private static func process(_ arguments: [String], in directory: URL, environment: [String: String?], executable: URL? = nil) throws -> Process {
        guard let url = executable ?? url else { throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "apigen binary not found near \(CommandLine.arguments[0])"]) }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        return process
    }
}
