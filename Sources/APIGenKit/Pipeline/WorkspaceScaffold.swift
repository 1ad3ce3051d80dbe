import Foundation

/// The starting workspace `apigen init` writes: a workspace file and one API file that generate
/// and build at once, for a person to edit into their own.
public enum WorkspaceScaffold {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `apis/workspace.yaml` and `apis/example.yaml` under `directory` and returns the
    /// workspace file's path. Refuses to overwrite an existing workspace.
    public static func create(module: String, in directory: URL) throws -> String {
        guard SwiftIdentifier.isValid(module), !SwiftIdentifier.keywords.contains(module) else {
            throw Failure(description: "'\(module)' is not a valid Swift module name: use letters, digits and '_', starting with a letter")
        }
        let apis = directory.appendingPathComponent("apis")
        let workspaceFile = apis.appendingPathComponent("workspace.yaml")
        guard !FileManager.default.fileExists(atPath: workspaceFile.path) else {
            throw Failure(description: "\(workspaceFile.path) already exists; apigen init starts new workspaces only")
        }
        try FileManager.default.createDirectory(at: apis, withIntermediateDirectories: true)
        try Data(workspaceText(module: module).utf8).write(to: workspaceFile)
        try Data(exampleText.utf8).write(to: apis.appendingPathComponent("example.yaml"))
        return workspaceFile.path
    }

    /// The workspace file `init` writes, and `import openapi` when a workspace has none.
    public static func workspaceText(module: String, baseURL: String = "https://api.example.com/v1") -> String {
        """
        # The workspace: what apigen generates and where. Every other .yaml file in this folder
        # declares APIs and types. Run `swift run apigen` after editing; docs/manifest.md has it all.
        module: \(module)
        output: ../Sources/\(module)/Generated
        defaults:
          baseURL: \(baseURL)
          timeout: 30
          headers:
            Accept: application/json

        """
    }

    static let exampleText = """
        # One API to start from: each API becomes a Swift class, each type a Codable struct.
        types:
          Greeting:
            description: What the server says back.
            fields:
              message: String
              language: { type: "String?", json: lang }

        apis:
          GetGreeting:
            description: Says hello to someone.
            method: GET
            path: /greetings/{name}
            parameters:
              name: String
              language: { type: "String?", in: query, name: lang }
            response: Greeting

        """

    /// What to do next, printed after `apigen init`.
    public static func nextSteps(module: String) -> String {
        """
        Next: make Sources/\(module) a target of your package that depends on APIRuntime, e.g.

            .target(name: "\(module)", dependencies: [.product(name: "APIRuntime", package: "apigen")]),

        then `import \(module)` and call `try await GetGreetingAPI(name: "Ann").start()`.
        """
    }
}
