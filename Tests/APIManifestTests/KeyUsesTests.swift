import APIManifest
import Testing

/// docs/manifest-keys.md marks, for every key, the tools that have a use for it.
@Suite("What each tool does with each key")
struct KeyUsesTests {
    static func row(_ key: String, under heading: String) -> String? {
        let page = ManifestKeys.markdownPage
        guard let section = page.range(of: "## \(heading)\n") else { return nil }
        return page[section.upperBound...].split(separator: "\n").first { $0.hasPrefix("| `\(key)` |") }.map(String.init)
    }

    @Test("The key tables mark the tools that use each key")
    func tablesShowUses() {
        #expect(ManifestKeys.markdownPage.contains("| key | what it says | import | export | verify | serve |"))
        // A REST API's path: the importer writes it, the exporter describes it, verify calls it, serve answers at it.
        #expect(Self.row("path", under: "A REST API")?.hasSuffix(" | ✓ | ✓ | ✓ | ✓ |") == true)
        // Where templates come from matters to the generator alone.
        #expect(Self.row("templates", under: "The workspace file")?.hasSuffix(" |  |  |  |  |") == true)
        #expect(ManifestKeys.names(usedBy: .importer, in: .restAPI).contains("path") && !ManifestKeys.names(usedBy: .importer, in: .workspace).contains("templates"))
        // A team's own RPC protocol is neither exported, checked nor served.
        #expect(Self.row("method", under: "An API of a team's own RPC protocol (`kind: rpc`)")?.hasSuffix(" |  |  |  |  |") == true)
    }
}
