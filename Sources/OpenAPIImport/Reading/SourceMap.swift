import APIManifest
import OpenAPIKit
import Yams

/// Where the nodes of a document are: a JSON pointer to a file, line and column. JSON is read
/// as YAML, so both formats have lines.
struct SourceMap {
    let file: String
    let root: Node?

    init(file: String, root: Node?) {
        self.file = file
        self.root = root
    }

    /// Where the node the pointer names is, or the deepest of its ancestors the document has.
    func location(of pointer: JSONPointer) -> SourceLocation {
        guard let mark = deepestNode(at: pointer)?.node.mark else { return .file(file) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// The node the pointer names; nil when the document has none there.
    func node(at pointer: JSONPointer) -> Node? {
        deepestNode(at: pointer).flatMap { $0.isWhole ? $0.node : nil }
    }

    /// The node the pointer names, or the deepest of its ancestors the document has, and whether
    /// it is the one named.
    private func deepestNode(at pointer: JSONPointer) -> (node: Node, isWhole: Bool)? {
        guard var node = root else { return nil }
        for token in pointer.tokens {
            if let mapping = node.mapping,
               let value = mapping.first(where: { $0.key.string == token })?.value {
                node = value
            } else if let sequence = node.sequence, let index = Int(token), sequence.indices.contains(index) {
                node = sequence[index]
            } else {
                return (node, false)
            }
        }
        return (node, true)
    }

    /// The `default` written beside a `$ref` at `pointer` (`{"$ref": "…/Priority", "default": 5}`),
    /// which a reference decoded on its own leaves out: a number or a Boolean as written plain, a
    /// text otherwise.
    func defaultBesideReference(at pointer: JSONPointer) -> AnyCodable? {
        guard let mapping = node(at: pointer)?.mapping, mapping["$ref"] != nil, let value = mapping["default"], case .scalar(let scalar) = value else {
            return nil
        }
        guard scalar.style == .plain else { return AnyCodable(scalar.string) }
        if ["null", "Null", "NULL", "~", ""].contains(scalar.string) { return nil }
        if let number = Int(scalar.string) { return AnyCodable(number) }
        if let number = Double(scalar.string), number.isFinite { return AnyCodable(number) }
        if scalar.string == "true" || scalar.string == "false" { return AnyCodable(scalar.string == "true") }
        return AnyCodable(scalar.string)
    }
}
