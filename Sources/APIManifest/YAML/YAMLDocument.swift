import Yams

/// Parses one YAML file into a located node tree, turning libyaml's errors into diagnostics.
public enum YAMLDocument {
    /// Parses `text` read from `file`. Returns nil and records a diagnostic when the YAML is invalid.
    public static func parse(_ text: String, file: String, into diagnostics: inout Diagnostics) -> YAMLNode? {
        if let (line, column) = YAMLLimits.excessiveNesting(in: text) {
            diagnostics.error("nesting deeper than \(YAMLLimits.maxDepth) levels; a manifest needs far fewer", at: SourceLocation(file: file, line: line, column: column))
            return nil
        }
        do {
            // The basic resolver tags every scalar a string: the readers interpret scalars
            // themselves, and Yams's default resolver runs regular expressions over each one
            // (a tenth of a large workspace's generation time).
            guard let node = try Yams.compose(yaml: text, .basic) else {
                return YAMLNode(Node.mapping(.init([])), file: file)
            }
            if YAMLLimits.expandsTooFar(node) {
                diagnostics.error("the YAML expands to more than \(YAMLLimits.maxExpandedNodes) nodes through its aliases; refusing to read it", at: .file(file))
                return nil
            }
            return YAMLNode(node, file: file)
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
