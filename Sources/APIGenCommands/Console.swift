import APIGenKit
import ArgumentParser
import Foundation

/// What the commands print: diagnostics on stderr, paths and durations as people read them.
package enum Console {
    /// Runs the pipeline, prints its diagnostics, and exits with status 1 when any was an error.
    package static func run(_ workspaceFile: String, mode: Generator.Mode, options: Generator.Options = Generator.Options(), progress: ((Int, Int) -> Void)? = nil) throws -> Generator.Report {
        let report = Generator.run(workspaceFile: workspaceFile, mode: mode, options: options, progress: progress)
        printDiagnostics(report)
        guard report.succeeded else { throw ExitCode.failure }
        return report
    }

    package static func printDiagnostics(_ report: Generator.Report) {
        for diagnostic in report.diagnostics.sorted { error(diagnostic.description) }
    }

    package static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes `line` to standard output at once, unbuffered, for a log read as it grows.
    package static func output(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A path relative to the working directory when it is inside it.
    package static func displayPath(_ url: URL?) -> String {
        guard let url else { return "" }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
    }

    package static func format(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return milliseconds < 1000 ? "\(Int(milliseconds.rounded())) ms" : String(format: "%.2f s", milliseconds / 1000)
    }
}

/// "apigen: rendering 512/2000" on one terminal line, redrawn in place; only on a terminal,
/// only for workspaces big enough to take a moment, and gone once the run is done.
package final class ProgressLine {
    private let enabled: Bool
    private var shown = false
    private var lastPercent = -1
    static let threshold = 500

    package init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    package func update(_ done: Int, _ total: Int) {
        guard enabled, total >= Self.threshold else { return }
        let percent = done * 100 / max(total, 1)
        guard percent != lastPercent else { return }
        lastPercent = percent
        shown = true
        FileHandle.standardError.write(Data("\r\u{1B}[2Kapigen: rendering \(done)/\(total) (\(percent)%)".utf8))
    }

    package func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
