import Yams

/// Bounds that keep hostile YAML from crashing or stalling apigen. A manifest never comes near
/// them; a file that does gets a diagnostic instead of a stack overflow or an endless expansion.
enum YAMLLimits {
    /// Deeper nesting than this is refused before parsing: the YAML library, like the readers
    /// after it, recurses once per level.
    static let maxDepth = 200
    /// The most nodes any text may expand to, counting every use of an alias in full: a "billion
    /// laughs" file is a few lines that expand to billions of nodes.
    static let maxExpandedNodes = 1_000_000
    /// Nodes a text may expand to for each of its bytes. A text without aliases has at most one
    /// node for every two bytes; this lets anchors be reused several times over, as people reuse
    /// them, and refuses a ladder of aliases whatever its length, at a cost proportional to the
    /// text.
    static let expandedNodesPerByte = 4
    /// Nodes any text may expand to, however short.
    static let minExpandedNodes = 4_096

    /// The most nodes a text of `bytes` bytes may expand to.
    static func maxExpandedNodes(forBytes bytes: Int) -> Int {
        min(maxExpandedNodes, max(minExpandedNodes, bytes.multipliedReportingOverflow(by: expandedNodesPerByte).partialValue))
    }

    /// Where the text nests deeper than `maxDepth` levels, as a 1-based line and column, or nil.
    ///
    /// A cheap, conservative reading of the raw text: flow brackets count wherever they stand
    /// (brackets inside strings are balanced in any real manifest), and a line's indentation plus
    /// its `- ` and `? ` prefixes bound its block depth (two columns a level, one at least).
    static func excessiveNesting(in text: String) -> (line: Int, column: Int)? {
        var flowDepth = 0
        var line = 1
        var column = 0
        var atLineStart = true
        var prefixWidth = 0
        for byte in text.utf8 {
            column += 1
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                column = 0
                atLineStart = true
                prefixWidth = 0
                continue
            case UInt8(ascii: " ") where atLineStart, UInt8(ascii: "-") where atLineStart, UInt8(ascii: "?") where atLineStart:
                prefixWidth += byte == UInt8(ascii: " ") ? 1 : 2
                if prefixWidth > 2 * maxDepth { return (line, column) }
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                flowDepth += 1
                if flowDepth > maxDepth { return (line, column) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                flowDepth = max(0, flowDepth - 1)
            default:
                break
            }
            atLineStart = false
        }
        return nil
    }

    /// Whether the tree, with aliases expanded, has more than `limit` nodes. Stops counting as
    /// soon as it knows, so a bomb costs at most the limit.
    static func expandsTooFar(_ root: Node, limit: Int) -> Bool {
        var stack = [root]
        var count = 0
        while let node = stack.popLast() {
            count += 1
            if count > limit { return true }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    stack.append(key)
                    stack.append(value)
                }
            case .sequence(let sequence):
                stack.append(contentsOf: sequence)
            case .scalar, .alias:
                break
            }
        }
        return false
    }
}
