@testable import APIRuntime
import Testing

@Suite("Least recently used, bounded by cost")
struct LeastRecentlyUsedTests {
    @Test("Past the bound the least recently used go first; reading or storing again makes a value recent")
    func eviction() {
        var cache = LeastRecentlyUsed<String>(maxCost: 10)
        cache.set("a", cost: 4, for: "a")
        cache.set("b", cost: 4, for: "b")
        #expect(cache.value(for: "a") == "a")
        let dropped = cache.set("c", cost: 4, for: "c")
        #expect(dropped.map(\.key) == ["b"])
        #expect(cache.keysByRecency == ["c", "a"])
        #expect(cache.totalCost == 8)
        cache.set("a2", cost: 2, for: "a")
        #expect(cache.keysByRecency == ["a", "c"])
        #expect(cache.totalCost == 6)
        #expect(cache.peek("c") == "c")
        #expect(cache.keysByRecency == ["a", "c"])
    }

    @Test("A value costlier than the whole bound is not stored, and takes its key's old value with it")
    func tooLarge() {
        var cache = LeastRecentlyUsed<Int>(maxCost: 10)
        cache.set(1, cost: 5, for: "k")
        cache.set(2, cost: 3, for: "other")
        #expect(cache.set(3, cost: 11, for: "k").map(\.value) == [3])
        #expect(cache.peek("k") == nil)
        #expect(cache.keysByRecency == ["other"])
        #expect(cache.totalCost == 3)
    }

    @Test("Removing from the middle, the ends, and by a test keeps the order and the total")
    func removal() {
        var cache = LeastRecentlyUsed<Int>(maxCost: 100)
        for index in 0..<6 { cache.set(index, cost: index + 1, for: "k\(index)") }
        cache.remove("k3")
        cache.remove("k0")
        cache.remove("k5")
        #expect(cache.keysByRecency == ["k4", "k2", "k1"])
        #expect(cache.removeAll { _, value in value.isMultiple(of: 2) } == 2)
        #expect(cache.keysByRecency == ["k1"])
        #expect(cache.totalCost == 2)
        cache.remove("k1")
        #expect(cache.isEmpty && cache.totalCost == 0 && cache.keysByRecency.isEmpty)
    }

    @Test("100,000 distinct values keep the total within the bound, the newest kept")
    func manyDistinct() {
        var cache = LeastRecentlyUsed<Int>(maxCost: 64 * 1024)
        var most = 0
        for index in 0..<100_000 {
            cache.set(index, cost: 100 + index % 900, for: "key \(index)")
            most = max(most, cache.totalCost)
        }
        #expect(most <= 64 * 1024)
        #expect(cache.peek("key 99999") == 99_999)
        #expect(cache.peek("key 0") == nil)
        #expect(cache.keysByRecency.count == cache.count)
    }
}
