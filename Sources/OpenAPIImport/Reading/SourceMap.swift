import APIManifest
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

    /// The node the pointer names, or the deepest of its ancestors the document has.
    func location(of pointer: JSONPointer) -> SourceLocation {
        guard var node = root else { return .file(file) }
        for token in pointer.tokens {
            if let mapping = node.mapping,
               let value = mapping.first(where: { $0.key.string == token })?.value {
                node = value
            } else if let sequence = node.sequence, let index = Int(token), sequence.indices.contains(index) {
                node = sequence[index]
            } else {
                break
            }
        }
        guard let mark = node.mark else { return .file(file) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }
}
