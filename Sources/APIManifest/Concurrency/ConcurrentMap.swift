import Foundation

/// `(0..<count).map(body)` with the calls spread over every core, results in index order. For
/// the pipeline's independent pieces of work: files to parse, to render, folders to write.
package func concurrentMap<Result: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
    var results = [Result?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { buffer in
        // Each index is written by exactly one iteration, and read only after all end.
        nonisolated(unsafe) let buffer = buffer
        DispatchQueue.concurrentPerform(iterations: count) { index in
            buffer[index] = body(index)
        }
    }
    return results.map { $0! }
}
