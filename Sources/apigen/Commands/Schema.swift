import APIManifest
import ArgumentParser

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of the manifest format, for YAML editors (see docs/manifest.md)."
    )

    @Flag(help: "Print every manifest key, where it may appear and what it says, as the Markdown of docs/manifest-keys.md.")
    var markdown = false

    func run() {
        if markdown {
            print(ManifestKeys.markdownPage, terminator: "")
        } else {
            print(ManifestSchema.text, terminator: "")
        }
    }
}
