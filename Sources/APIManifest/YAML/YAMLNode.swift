import Yams

/// A YAML node that knows the file it came from, so every value read from it keeps its location.
///
/// The manifest readers only ever see these: they never touch Yams directly, which keeps the
/// YAML library an implementation detail of this folder.
public struct YAMLNode {
    let node: Node
    let file: String

    init(_ node: Node, file: String) {
        self.node = node
        self.file = file
    }

    public var location: SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    /// The text of a scalar, nil for mappings and sequences.
    public var scalarText: String? {
        if case .scalar(let scalar) = node { return scalar.string }
        return nil
    }

    /// True for `~`, `null` and an empty plain scalar.
    public var isNull: Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// A short name of the node's shape for messages: "a mapping", "a list", "a string".
    public var shapeName: String {
        switch node {
        case .scalar: return isNull ? "null" : "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// The elements of a sequence, nil when the node is not one.
    public var sequence: [YAMLNode]? {
        guard case .sequence(let sequence) = node else { return nil }
        return sequence.map { YAMLNode($0, file: file) }
    }

    /// The entries of a mapping in the order they were written, nil when the node is not one.
    public var mapping: YAMLMapping? {
        guard case .mapping(let mapping) = node else { return nil }
        let entries = mapping.map { key, value in
            YAMLMapping.Entry(
                key: Located(key.string ?? "", at: YAMLNode(key, file: file).location),
                value: YAMLNode(value, file: file)
            )
        }
        return YAMLMapping(entries: entries, location: location)
    }
}

/// The entries of a YAML mapping, in source order, with the location of every key.
public struct YAMLMapping {
    public struct Entry {
        public var key: Located<String>
        public var value: YAMLNode
    }

    public var entries: [Entry]
    public var location: SourceLocation

    public subscript(key: String) -> YAMLNode? {
        entries.first { $0.key.value == key }?.value
    }

    /// Reports every key not in `allowed`, with a did-you-mean where one is close.
    public func reportUnknownKeys(
        allowed: [String],
        in context: String,
        into diagnostics: inout Diagnostics
    ) {
        for entry in entries where !allowed.contains(entry.key.value) {
            let hint = Suggestion.hint(for: entry.key.value, in: allowed)
            diagnostics.error(
                "unknown key '\(entry.key.value)' in \(context)\(hint); expected one of: \(allowed.joined(separator: ", "))",
                at: entry.key.location
            )
        }
    }
}
