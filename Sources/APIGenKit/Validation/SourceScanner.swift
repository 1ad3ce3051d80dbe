import Foundation

/// Reads the module's hand-written Swift for the types a manifest may name: custom RPC delegates
/// (`delegate:`) and the app's own types (`swift:`), so that a manifest naming one that does not
/// exist is an error at the manifest, not a compile error in generated code.
///
/// It reads Swift source as text. A delegate is a `struct`, `class`, `enum` or `actor` whose
/// inheritance clause names `RPCDelegate`, conformances added in an extension included; a type
/// is any `struct`, `class`, `enum`, `actor` or `typealias` declaration.
enum SourceScanner {
    struct Declarations {
        var delegates: Set<String> = []
        var types: Set<String> = []
    }

    static func scan(_ directory: URL, excluding output: URL) -> Declarations {
        var found = Declarations()
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return found }
        let excluded = output.standardizedFileURL.path + "/"
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            guard !url.standardizedFileURL.path.hasPrefix(excluded),
                  let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            let source = String(decoding: data, as: UTF8.self)
            found.delegates.formUnion(declaredDelegates(in: source))
            found.types.formUnion(declaredTypes(in: source))
        }
        return found
    }

    private static let delegate = try! NSRegularExpression(
        pattern: #"\b(?:struct|class|enum|actor|extension)\s+([A-Za-z_][A-Za-z0-9_]*)\s*:[^{]*\bRPCDelegate\b"#
    )

    private static let type = try! NSRegularExpression(
        pattern: #"\b(?:struct|class|enum|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#
    )

    static func declaredDelegates(in source: String) -> Set<String> {
        names(matching: delegate, in: source)
    }

    static func declaredTypes(in source: String) -> Set<String> {
        names(matching: type, in: source)
    }

    private static func names(matching pattern: NSRegularExpression, in source: String) -> Set<String> {
        let range = NSRange(source.startIndex..., in: source)
        return Set(pattern.matches(in: source, range: range).compactMap { match in
            Range(match.range(at: 1), in: source).map { String(source[$0]) }
        })
    }
}
