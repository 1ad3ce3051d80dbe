import Foundation
import PackagePlugin

/// Generates a target's REST, JSON-RPC and gRPC APIs at build time from the target's `apis/`
/// folder, compiling its protos with the `protoc` and `protoc-gen-swift` swift-protobuf builds,
/// so nothing needs installing by hand.
@main
struct APIGenGRPCPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw PluginFailure("apigen's plugin generates Swift, but '\(target.name)' is not a Swift target")
        }
        return try commands(for: target.name, in: target.directoryURL, workDirectory: context.pluginWorkDirectoryURL, tool: context.tool(named:))
    }

    func commands(for targetName: String, in directory: URL, workDirectory: URL, tool: (String) throws -> PluginContext.Tool) throws -> [Command] {
        let output = workDirectory.appending(path: "Generated")
        let plan = try BuildPlan(targetName: targetName, targetDirectory: directory, outputFolder: output)
        return try [plan.command(
            targetName: targetName, targetDirectory: directory,
            apigen: tool("apigen-generate").url, outputFolder: output, cacheFolder: workDirectory.appending(path: "cache"),
            protoc: tool("protoc").url, protocGenSwift: tool("protoc-gen-swift").url
        )]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension APIGenGRPCPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try commands(for: target.displayName, in: BuildPlan.targetDirectory(of: target), workDirectory: context.pluginWorkDirectoryURL, tool: context.tool(named:))
    }
}
#endif
