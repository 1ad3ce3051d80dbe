import APIManifest

/// One difference between two versions of a workspace: a change that breaks an app already
/// shipped or a server already deployed, or one that nothing built from the old version notices.
public struct WorkspaceChange: Sendable, Equatable, Codable {
    public enum Effect: String, Sendable, Codable {
        /// An app built from the old version, or a server built from it, fails against the new one.
        case breaking
        /// Nothing built from the old version notices: something added, or a type that what was
        /// built still reads (a reply's field made required) or still sends (a parameter widened).
        case compatible
    }

    public var effect: Effect
    /// What changed: `GetUser`, `User.name`, `routeguide.Feature.name`.
    public var subject: String
    public var message: String
    /// Where the new version declares it, or what held it when it was removed.
    public var file: String
    public var line: Int
    public var column: Int

    public init(_ effect: Effect, _ subject: String, _ message: String, at location: SourceLocation) {
        self.effect = effect
        self.subject = subject
        self.message = message
        self.file = location.file
        self.line = location.line
        self.column = location.column
    }

    /// `apis/users.yaml:12:3: error: User.name: …`, or `note:` for a compatible change, as compilers write.
    public var diagnostic: String {
        "\(file):\(line):\(column): \(effect == .breaking ? "error" : "note"): \(subject): \(message)"
    }
}
