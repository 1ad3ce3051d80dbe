import Foundation
import PackagePlugin

/// Generates a target's REST and JSON-RPC APIs at build time from the target's `apis/` folder.
/// Targets with protos use `APIGenGRPCPlugin`, which also builds `protoc`.
@main
struct APIGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw PluginFailure("apigen's plugin generates Swift, but '\(target.name)' is not a Swift target")
        }
        return try commands(for: target.name, in: target.directoryURL, workDirectory: context.pluginWorkDirectoryURL, apigen: context.tool(named: "apigen-generate").url)
    }

    func commands(for targetName: String, in directory: URL, workDirectory: URL, apigen: URL) throws -> [Command] {
        let output = workDirectory.appending(path: "Generated")
        let plan = try BuildPlan(targetName: targetName, targetDirectory: directory, outputFolder: output)
        if plan.hasProtos {
            throw PluginFailure("'\(targetName)' has protos under apis/: use the APIGenGRPCPlugin plugin instead of APIGenPlugin; it also builds protoc and protoc-gen-swift")
        }
        return [plan.command(targetName: targetName, targetDirectory: directory, apigen: apigen, outputFolder: output, cacheFolder: workDirectory.appending(path: "cache"), protoc: nil, protocGenSwift: nil)]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension APIGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try commands(for: target.displayName, in: BuildPlan.targetDirectory(of: target), workDirectory: context.pluginWorkDirectoryURL, apigen: context.tool(named: "apigen-generate").url)
    }
}
#endif
