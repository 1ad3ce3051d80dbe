import APIGenKit
import APIManifest
import Foundation
import Testing

/// Mutated and hostile manifests: apigen must answer every one with success or diagnostics,
/// never crash, and never take long.
@Suite("Robustness against broken and hostile manifests", .ownThread)
struct RobustnessTests {
    /// How long one run may take on any of these inputs (debug build, loaded CI machine).
    static let bound: Duration = .seconds(20)

    /// Runs the whole pipeline in check mode (nothing written) over a workspace holding `api`.
    func run(_ api: String) throws -> (report: Generator.Report, elapsed: Duration) {
        let workspace = try TemporaryWorkspace(api: api)
        defer { workspace.remove() }
        let clock = ContinuousClock()
        let start = clock.now
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .check)
        let elapsed = clock.now - start
        for diagnostic in report.diagnostics.all {
            #expect(diagnostic.location.file.hasPrefix(workspace.root.path), "\(diagnostic)")
            #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(diagnostic)")
        }
        return (report, elapsed)
    }

    @Test("Hundreds of random mutations of real manifests end in success or diagnostics")
    func mutations() throws {
        let sources = try ["apis/users.yaml", "apis/auth.yaml", "apis/calculator.yaml", "Tests/Fixtures/Reference/apis/catalog.yaml"]
            .map { try String(contentsOf: repositoryRoot.appendingPathComponent($0), encoding: .utf8) }
        var random = SplitMix64(seed: 0x5EED_A919)
        var outcomes = (succeeded: 0, failed: 0)
        for round in 0..<600 {
            var text = sources[round % sources.count]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                text = Mutation.allCases[Int(random.next() % UInt64(Mutation.allCases.count))].apply(to: text, using: &random)
            }
            let (report, elapsed) = try run(text)
            #expect(elapsed < Self.bound, "round \(round) took \(elapsed)")
            if report.succeeded { outcomes.succeeded += 1 } else {
                outcomes.failed += 1
                #expect(!report.diagnostics.errors.isEmpty)
            }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        #expect(outcomes.succeeded > 10)
        #expect(outcomes.failed > 10)
    }

    /// Hostile inputs, by name: their text is too large to print in a test's name.
    static let hostile: [String: (text: String, expected: String)] = [
        "deep flow nesting": ("apis:\n  X: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n", "nesting deeper than"),
        "deep block nesting": ("apis:\n" + (1...3000).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + "\n", "nesting deeper than"),
        "compact sequence nesting": (String(repeating: "- ", count: 5000) + "x\n", "nesting deeper than"),
        "billion laughs": (BillionLaughs.yaml, "expands to more than"),
        "a sample's alias ladder under a million nodes": (BillionLaughs.ladder, "expands to more than"),
        "duplicate keys": ("apis:\n  A: { method: GET, path: /a }\n  A: { method: GET, path: /b }\n", "duplicate key 'A'"),
        "random bytes": (String(decoding: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }, as: UTF8.self), "error"),
        "a tab-indented file": ("apis:\n\tA:\n\t\tmethod: GET\n", "YAML syntax error"),
        "a scalar where a mapping belongs": ("just a string\n", "must be a mapping"),
        "a list at the top": ("- a\n- b\n", "must be a mapping"),
    ]

    @Test("Hostile shapes are refused with a diagnostic", arguments: hostile.keys.sorted())
    func hostileShapes(name: String) throws {
        let (text, expected) = try #require(Self.hostile[name])
        let (report, elapsed) = try run(text)
        #expect(elapsed < Self.bound)
        #expect(!report.succeeded, "\(name) was accepted")
        #expect(report.diagnostics.errors.contains { $0.description.contains(expected) }, "\(report.diagnostics.errors.prefix(3))")
    }

    @Test("Invalid UTF-8 is a diagnostic")
    func invalidUTF8() throws {
        let workspace = try TemporaryWorkspace(api: "")
        defer { workspace.remove() }
        try Data([0x61, 0x70, 0x69, 0x73, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]).write(to: workspace.root.appendingPathComponent("apis/api.yaml"))
        let report = Generator.run(workspaceFile: workspace.workspaceFile, mode: .check)
        #expect(report.diagnostics.errors.map(\.message) == ["file is not valid UTF-8"])
    }

    @Test("A 10 MB manifest is read within the bound")
    func largeFile() throws {
        let filler = String(repeating: "# padding line to make the file large, as generated manifests can be\n", count: 90_000)
        let description = String(repeating: "A long description line. ", count: 160_000)
        let text = filler + "apis:\n  Big:\n    method: GET\n    path: /big\n    description: \"\(description)\"\n"
        #expect(text.utf8.count > 10_000_000)
        let (report, elapsed) = try run(text)
        #expect(report.succeeded, "\(report.diagnostics.errors.prefix(3))")
        #expect(elapsed < Self.bound)
    }

    @Test("Anchors and aliases used as people use them work")
    func ordinaryAliases() throws {
        let (report, _) = try run("""
            apis:
              A:
                method: GET
                path: /a
                headers: &common
                  Accept: application/json
                  X-Client: ios
              B:
                method: GET
                path: /b
                headers: *common
            """)
        #expect(report.succeeded, "\(report.diagnostics.all)")
        let b = report.plan.changed.first { $0.path == "api/BAPI.swift" }
        #expect(b?.contents.contains(#"(name: "X-Client", value: "ios")"#) == true)
    }
}

/// Ten levels of ten-fold aliases: a 1 KB file that names 10^10 nodes.
enum BillionLaughs {
    /// Five levels of ten-fold aliases, used three times, in an API's `sample:` body: 300,000
    /// nodes in about 500 bytes, under the million any text may have, and megabytes of Swift were
    /// it generated.
    static let ladder: String = {
        var lines = ["x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...4 {
            lines.append("x\(level): &x\(level) [\(Array(repeating: "*x\(level - 1)", count: 10).joined(separator: ","))]")
        }
        lines.append("x5: [*x4, *x4, *x4]")
        return "apis:\n  GetA:\n    method: GET\n    path: /a\n    response: JSON\n    sample:\n      body:\n" + lines.map { "        " + $0 }.joined(separator: "\n") + "\n"
    }()

    static let yaml: String = {
        var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...10 {
            let previous = "*a\(level - 1)"
            lines.append("a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]")
        }
        lines.append("apis:")
        lines.append("  X:")
        lines.append("    method: GET")
        lines.append("    path: /x")
        lines.append("    envelope: *a10")
        return lines.joined(separator: "\n") + "\n"
    }()
}

/// Small edits a person or a tool might make by mistake.
enum Mutation: CaseIterable {
    case deleteLine, duplicateLine, swapLines, swapType, insertNoise, truncate, reindentLine, replaceValue

    static let types = ["Int", "String?", "[User]", "[String: Int]", "Nope", "Int??", "[", "{}", "User?", "JSON", "Date"]
    static let noise = ["\"", "'", "\\", "{", "}", "[", "]", ":", "- ", "&x", "*x", "!!int", "\t", "\u{0}", "\u{202E}", "%", "@", "`", "|", ">", "#", "\n  ", "~"]

    func apply(to text: String, using random: inout SplitMix64) -> String {
        var lines = text.components(separatedBy: "\n")
        guard !lines.isEmpty else { return text }
        let index = Int(random.next() % UInt64(lines.count))
        switch self {
        case .deleteLine:
            lines.remove(at: index)
        case .duplicateLine:
            lines.insert(lines[index], at: index)
        case .swapLines:
            let other = Int(random.next() % UInt64(lines.count))
            lines.swapAt(index, other)
        case .swapType:
            let type = Self.types[Int(random.next() % UInt64(Self.types.count))]
            for word in ["Int", "String", "User", "Role", "Double", "Bool"] where lines[index].contains(word) {
                lines[index] = lines[index].replacingOccurrences(of: word, with: type)
                break
            }
        case .insertNoise:
            var line = Array(lines[index])
            let position = line.isEmpty ? 0 : Int(random.next() % UInt64(line.count + 1))
            line.insert(contentsOf: Self.noise[Int(random.next() % UInt64(Self.noise.count))], at: position)
            lines[index] = String(line)
        case .truncate:
            return String(text.prefix(Int(random.next() % UInt64(text.count + 1))))
        case .reindentLine:
            lines[index] = String(repeating: " ", count: Int(random.next() % 9)) + lines[index].drop { $0 == " " }
        case .replaceValue:
            if let colon = lines[index].firstIndex(of: ":") {
                let values = ["", " ~", " 12", " -3", " 1e999", " true", " [a, b]", " {a: 1}", " none", " \"x\"", " /p/{q}"]
                lines[index] = String(lines[index][...colon]) + values[Int(random.next() % UInt64(values.count))]
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// A small, seedable generator so every run of the suite tries the same inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
