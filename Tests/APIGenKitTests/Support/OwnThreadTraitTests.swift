import Foundation
import Testing

@Suite("Tests marked ownThread", .ownThread)
struct OwnThreadTraitTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A synchronous test runs with a thread of its own as its executor, not the cooperative pool")
    func synchronousTest() {
        #expect(ThreadExecutor.isCurrentTestExecutor)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Each case of a parameterized test does too", arguments: [1, 2])
    func parameterized(case: Int) {
        #expect(ThreadExecutor.isCurrentTestExecutor)
    }
}

extension OwnThreadTraitTests {
    @Test("Every suite of the generator's tests is marked ownThread")
    func everySuiteMarked() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        let unmarked = try files.filter { $0.pathExtension == "swift" }.flatMap { file in
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("@Suite") && !$0.contains(".ownThread") }
                .map { "\(file.lastPathComponent): \($0)" }
        }
        #expect(files.count > 20)
        #expect(unmarked.isEmpty, "\(unmarked)")
    }
}
