import APIManifest
import Foundation
import Testing
import Yams

/// The importer writes only keys whose declaration says it does (`ManifestKey.uses`), so the
/// table a contributor reads when adding a key is the importer's own.
@Suite("Keys the importer writes", .ownThread)
struct ImportedKeysTests {
    /// The keys of an imported manifest at the places the key table knows: the file, a type, a
    /// field, an API, a parameter, a reply header, a whole body and a sample.
    static func keys(in node: Node) -> Set<String> {
        var names: Set<String> = []
        func keys(of node: Node?) -> [(String, Node)] {
            node?.mapping.map { mapping in mapping.compactMap { key, value in key.string.map { ($0, value) } } } ?? []
        }
        func collect(_ node: Node?) { names.formUnion(keys(of: node).map(\.0)) }
        collect(node)
        for (_, type) in keys(of: node["types"]) {
            collect(type)
            keys(of: type["fields"]).forEach { collect($0.1) }
        }
        for (_, api) in keys(of: node["apis"]) {
            collect(api)
            for place in ["parameters", "responseHeaders"] { keys(of: api[place]).forEach { collect($0.1) } }
            collect(api["body"])
            collect(api["sample"])
        }
        return names
    }

    @Test("Every key in the committed imports is one whose declaration says the importer writes it")
    func writesWhatItSays() throws {
        let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/Imported/apis")
        var written: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".yaml") && file != "workspace.yaml" {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            written.formUnion(Self.keys(in: try #require(try Yams.compose(yaml: text))))
        }
        #expect(written.count > 15)
        let unlisted = written.subtracting(ManifestKeys.names(usedBy: .importer))
        #expect(unlisted.isEmpty, "the importer writes \(unlisted.sorted()), which ManifestKeys does not say it does")
    }
}
