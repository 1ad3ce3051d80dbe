/// What the manager does with a call identical to one already in flight.
public enum FrequencyPolicy: String, Sendable {
    /// Send it anyway.
    case allow
    /// Fail the new call at once with `APIError.Reason.duplicateRequest`.
    case reject
    /// Let the new call wait for the one in flight and share its result.
    case coalesce
}
