import Foundation
import PackagePlugin

/// `swift package generate-apis`: runs apigen over workspaces and writes their code into the
/// source tree, for teams that commit it. Each workspace writes where its `output:` says.
///
///     swift package --allow-writing-to-package-directory generate-apis
///     swift package --allow-writing-to-package-directory generate-apis --target Client
///     swift package --allow-writing-to-package-directory generate-apis --workspace apis/workspace.yaml
///
/// With neither option it runs over `apis/workspace.yaml` at the package's root; `--target NAME`
/// runs over that target's own `apis/workspace.yaml` (leave out the targets whose code a build
/// plugin generates: their workspaces write elsewhere).
@main
struct GenerateAPIs: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let workspaceOptions = extractor.extractOption(named: "workspace")
        guard extractor.remainingArguments.isEmpty else {
            throw PluginFailure("unexpected arguments \(extractor.remainingArguments.joined(separator: " ")): generate-apis takes --target NAME and --workspace FILE")
        }

        let root = context.package.directoryURL
        var workspaces = workspaceOptions.map { URL(fileURLWithPath: $0, relativeTo: root).standardizedFileURL }
        if targetNames.isEmpty && workspaces.isEmpty {
            workspaces.append(root.appending(path: "apis/workspace.yaml"))
        }
        for name in targetNames {
            guard let target = context.package.targets.first(where: { $0.name == name }) else {
                throw PluginFailure("no target named '\(name)' in this package")
            }
            workspaces.append(target.directoryURL.appending(path: "apis/workspace.yaml"))
        }

        for workspace in workspaces where !FileManager.default.fileExists(atPath: workspace.path) {
            throw PluginFailure("\(workspace.path) does not exist: add it (`apigen init` writes one), or name another with --workspace")
        }

        let apigen = try context.tool(named: "apigen-generate").url
        // No protoc of the plugin's own: committed gRPC code carries a record of what made it, and
        // apigen needs protoc only after a proto changed. It then looks where `PROTOC` and
        // `PROTOC_GEN_SWIFT` say, in this package's build folder (`swift build --product protoc` and
        // `swift build --product protoc-gen-swift` build swift-protobuf's), then on the PATH, and says so.
        var environment = ProcessInfo.processInfo.environment
        // The plugin's sandbox lets apigen write only to the package and the plugin's own folder.
        environment["APIGEN_CACHE_DIR"] = context.pluginWorkDirectoryURL.appending(path: "cache").path
        for workspace in workspaces {
            let process = Process()
            process.executableURL = apigen
            process.arguments = ["generate", "--workspace", workspace.path]
            process.environment = environment
            process.currentDirectoryURL = root
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw PluginFailure("apigen failed for \(workspace.path) (exit status \(process.terminationStatus)); its messages are above")
            }
        }
    }
}
