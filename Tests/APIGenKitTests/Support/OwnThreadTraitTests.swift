import Foundation
import Testing

@Suite("Tests marked ownThread", .ownThread)
struct OwnThreadTraitTests {
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("A synchronous test runs on a thread of its own, not on the cooperative pool")
    func synchronousTest() {
        #expect(Thread.current.name == ThreadExecutor.threadName)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    @Test("Each case of a parameterized test does too", arguments: [1, 2])
    func parameterized(case: Int) {
        #expect(Thread.current.name == ThreadExecutor.threadName)
    }
}
