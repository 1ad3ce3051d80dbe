import Yams

/// Parses one YAML file into a located node tree, turning libyaml's errors into diagnostics.
public enum YAMLDocument {
    /// Parses `text` read from `file`. Returns nil and records a diagnostic when the YAML is invalid.
    public static func parse(_ text: String, file: String, into diagnostics: inout Diagnostics) -> YAMLNode? {
        // The basic resolver tags every scalar a string: the readers interpret scalars themselves,
        // and Yams's default resolver runs regular expressions over each one (a tenth of a large
        // workspace's generation time).
        compose(text, file: file, resolver: .basic, into: &diagnostics).map { YAMLNode($0, file: file) }
    }

    /// Yams's node tree of `text`, within `YAMLLimits`: nil, with a diagnostic at the line and
    /// column libyaml names, when the text is not YAML, nests too deep or expands too far through
    /// its aliases. An empty text is an empty mapping. `kind` names what the file should be, for
    /// the messages (`a manifest`, `an OpenAPI document`).
    package static func compose(_ text: String, file: String, resolver: Resolver, kind: String = "a manifest", into diagnostics: inout Diagnostics) -> Node? {
        if let (line, column) = YAMLLimits.excessiveNesting(in: text) {
            diagnostics.error("nesting deeper than \(YAMLLimits.maxDepth) levels; \(kind) needs far fewer", at: SourceLocation(file: file, line: line, column: column))
            return nil
        }
        do {
            guard let node = try Yams.compose(yaml: text, resolver) else { return Node.mapping(.init([])) }
            let limit = YAMLLimits.maxExpandedNodes(forBytes: text.utf8.count)
            if YAMLLimits.expandsTooFar(node, limit: limit) {
                diagnostics.error(
                    "the YAML expands to more than \(limit) nodes through its aliases (\(YAMLLimits.expandedNodesPerByte) a byte of its \(text.utf8.count) allowed); refusing to read it",
                    at: .file(file)
                )
                return nil
            }
            return node
        } catch let error as YamlError {
            let (message, location) = describe(error, file: file)
            diagnostics.error(message, at: location)
            return nil
        } catch {
            diagnostics.error("cannot parse YAML: \(error)", at: .file(file))
            return nil
        }
    }

    private static func describe(_ error: YamlError, file: String) -> (String, SourceLocation) {
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        func text(_ context: YamlError.Context?, _ problem: String) -> String {
            guard let context else { return "YAML syntax error: \(problem)" }
            return "YAML syntax error: \(problem) \(context.text)"
        }
        switch error {
        case let .scanner(context, problem, mark, _),
             let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            return (text(context, problem), at(mark))
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ("duplicate key \(keys) in mapping", at(context.mark))
        case let .reader(problem, offset, _, _):
            return ("cannot read YAML: \(problem)\(offset.map { " at byte \($0)" } ?? "")", .file(file))
        default:
            return ("cannot parse YAML: \(error)", .file(file))
        }
    }
}
