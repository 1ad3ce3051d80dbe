import Foundation

/// Finds the custom RPC delegate types an app declares, so a manifest naming one that does not
/// exist is an error at the manifest, not a compile error in generated code.
///
/// It reads Swift source as text: a `struct`, `class`, `enum` or `actor` whose inheritance clause
/// names `RPCDelegate`. Conformances added in an extension of another file are found too.
enum DelegateScanner {
    static func delegateTypes(in directory: URL, excluding output: URL) -> Set<String> {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        let excluded = output.standardizedFileURL.path + "/"
        var names: Set<String> = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            guard !url.standardizedFileURL.path.hasPrefix(excluded),
                  let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            names.formUnion(declaredDelegates(in: String(decoding: data, as: UTF8.self)))
        }
        return names
    }

    private static let declaration = try! NSRegularExpression(
        pattern: #"\b(?:struct|class|enum|actor|extension)\s+([A-Za-z_][A-Za-z0-9_]*)\s*:[^{]*\bRPCDelegate\b"#
    )

    static func declaredDelegates(in source: String) -> Set<String> {
        let range = NSRange(source.startIndex..., in: source)
        return Set(declaration.matches(in: source, range: range).compactMap { match in
            Range(match.range(at: 1), in: source).map { String(source[$0]) }
        })
    }
}
