import APIManifest
import ArgumentParser

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of the manifest format, for YAML editors (see docs/manifest.md)."
    )

    func run() {
        print(ManifestSchema.text, terminator: "")
    }
}
