/// The response of an API that returns no body (`response: none`).
public struct NoContent: Sendable, Equatable, Hashable {
    /// The empty value.
    public init() {}
}
