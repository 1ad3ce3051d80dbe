/// A generated model's `Equatable`: the model writes `fieldsEqual(_:_:)`, and `==` is declared
/// here, once, from it.
///
/// ```swift
/// public struct Item: Codable, Sendable, FieldwiseEquatable {
///     public static func fieldsEqual(_ lhs: Item, _ rhs: Item) -> Bool {
///         guard
///             FieldComparison.int(lhs.id, rhs.id)
///         else { return false }
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
/// (docs/ARCHITECTURE.md).
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

/// How a generated model's `fieldsEqual(_:_:)` compares its fields, one condition a field:
///
/// ```swift
/// guard
///     FieldComparison.int(lhs.id, rhs.id),
///     FieldComparison.stringIfPresent(lhs.nickname, rhs.nickname),
///     FieldComparison.equal(lhs.tags, rhs.tags)
/// else { return false }
/// return true
/// ```
///
/// The names are `FieldReader`'s and `FieldWriter`'s. A scalar's own method is not generic, so the
/// model's file compiles no generic call for it (a file of 50 four-field models: 5 % fewer
/// instructions, docs/ARCHITECTURE.md); other types go through `equal`. Each is a call with
/// one candidate instead of the `==` operator, which the type checker resolves among every
/// overload in scope; a derived `Equatable` costs the same resolution, plus the search for a
/// witness before it derives one (docs/ARCHITECTURE.md).
public enum FieldComparison {
    @inlinable
    public static func equal<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
        lhs == rhs
    }

    @inlinable public static func string(_ lhs: String, _ rhs: String) -> Bool { lhs == rhs }
    @inlinable public static func int(_ lhs: Int, _ rhs: Int) -> Bool { lhs == rhs }
    @inlinable public static func int64(_ lhs: Int64, _ rhs: Int64) -> Bool { lhs == rhs }
    @inlinable public static func double(_ lhs: Double, _ rhs: Double) -> Bool { lhs == rhs }
    @inlinable public static func bool(_ lhs: Bool, _ rhs: Bool) -> Bool { lhs == rhs }

    // Optional scalars: equal when both are absent or both hold equal values.
    @inlinable public static func stringIfPresent(_ lhs: String?, _ rhs: String?) -> Bool { lhs == rhs }
    @inlinable public static func intIfPresent(_ lhs: Int?, _ rhs: Int?) -> Bool { lhs == rhs }
    @inlinable public static func int64IfPresent(_ lhs: Int64?, _ rhs: Int64?) -> Bool { lhs == rhs }
    @inlinable public static func doubleIfPresent(_ lhs: Double?, _ rhs: Double?) -> Bool { lhs == rhs }
    @inlinable public static func boolIfPresent(_ lhs: Bool?, _ rhs: Bool?) -> Bool { lhs == rhs }
}
