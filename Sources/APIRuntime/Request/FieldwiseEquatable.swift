/// A generated model's `Equatable`: the model writes `fieldsEqual(_:_:)`, and `==` is declared
/// here, once, from it.
///
/// ```swift
/// public struct Item: Codable, Sendable, FieldwiseEquatable {
///     public static func fieldsEqual(_ lhs: Item, _ rhs: Item) -> Bool {
///         if !FieldComparison.equal(lhs.id, rhs.id) { return false }
///         return true
///     }
/// }
/// ```
///
/// Why not `static func ==` in each model: whenever the compiler looks an operator up at module
/// scope (checking a conformance to `Equatable` does), it parses the member lists of every type
/// in the module whose body declares an operator. With a `==` in each of 1,000 models, every
/// compile job of the module parsed all 1,000, which cost more than the written-out `==` saved;
/// a named method is not an operator, so no job parses another file's models
/// (BENCHMARKS.md §2, session 15).
public protocol FieldwiseEquatable: Equatable {
    /// Whether every field of `lhs` equals the same field of `rhs`.
    static func fieldsEqual(_ lhs: Self, _ rhs: Self) -> Bool
}

extension FieldwiseEquatable {
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        fieldsEqual(lhs, rhs)
    }
}

/// How a generated model's `fieldsEqual(_:_:)` compares its fields, one call a field:
///
/// ```swift
/// if !FieldComparison.equal(lhs.id, rhs.id) { return false }
/// ```
///
/// A call with one candidate instead of the `==` or `!=` operator, which the type checker resolves
/// among every overload in scope; a derived `Equatable` costs the same resolution, plus the search
/// for a witness before it derives one (BENCHMARKS.md §2, session 15).
public enum FieldComparison {
    @inlinable
    public static func equal<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
        lhs == rhs
    }
}
