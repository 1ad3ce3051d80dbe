import ArgumentParser

/// `apigen verify`: runs `apigen-verify`, the contract check against a live server.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call the workspace's safe APIs on a live server and check the replies against the manifests (runs apigen-verify; see apigen-verify --help)."
    )

    @Argument(parsing: .captureForPassthrough, help: "apigen-verify's options: -w, --base-url (URL or BASE=SERVER), --grpc-url, --api, --header, --timeout, --json, -q.")
    var arguments: [String] = []

    func run() throws {
        try CompanionTool.run("apigen-verify", arguments)
    }
}
