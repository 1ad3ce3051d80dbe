import APIGenKit
import APIManifest
import Foundation
import Testing

/// A workspace of one API file in a folder of its own, for a test to describe or serve; gone
/// with `remove()`.
struct ScratchWorkspace {
    let folder: URL
    /// The workspace file's path, and the API file's.
    var workspaceFile: String { folder.appendingPathComponent("workspace.yaml").path }
    var apiFile: String { folder.appendingPathComponent("api.yaml").path }

    /// `api` as `api.yaml`, beside a workspace file whose default base URL is `baseURL`.
    init(baseURL: String?, api: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let defaults = baseURL.map { "defaults:\n  baseURL: \($0)\n" } ?? ""
        try "module: Scratch\noutput: Generated\n\(defaults)".write(toFile: workspaceFile, atomically: true, encoding: .utf8)
        try api.write(toFile: apiFile, atomically: true, encoding: .utf8)
    }

    /// The workspace as the generator describes it; an issue naming its errors when it has any.
    func describe(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> WorkspaceDescription {
        var diagnostics = Diagnostics()
        let described = Generator.describe(workspaceFile: workspaceFile, into: &diagnostics)
        return try #require(described, "\(diagnostics.sorted)", sourceLocation: sourceLocation).1
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `api` at `baseURL`, described, its folder removed.
    static func describe(_ api: String, baseURL: String?) throws -> WorkspaceDescription {
        let scratch = try ScratchWorkspace(baseURL: baseURL, api: api)
        defer { scratch.remove() }
        return try scratch.describe()
    }
}
