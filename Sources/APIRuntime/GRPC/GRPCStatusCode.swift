/// A gRPC status code (https://grpc.github.io/grpc/core/md_doc_statuscodes.html), as the server
/// ended the call with it.
public struct GRPCStatusCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's number on the wire (`grpc-status`).
    public var rawValue: Int

    /// The code with this number; numbers the specification does not define are kept as they are.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The call succeeded.
    public static let ok = Self(rawValue: 0)
    /// The call was cancelled, usually by the caller.
    public static let cancelled = Self(rawValue: 1)
    /// An error the server could not classify.
    public static let unknown = Self(rawValue: 2)
    /// The client sent an argument the server rejects whatever its state.
    public static let invalidArgument = Self(rawValue: 3)
    /// The deadline passed before the call completed.
    public static let deadlineExceeded = Self(rawValue: 4)
    /// Something the call asked for does not exist.
    public static let notFound = Self(rawValue: 5)
    /// Something the call tried to create exists already.
    public static let alreadyExists = Self(rawValue: 6)
    /// The caller may not do this.
    public static let permissionDenied = Self(rawValue: 7)
    /// A quota or a resource ran out (a rate limit, the disk).
    public static let resourceExhausted = Self(rawValue: 8)
    /// The system is not in a state the call needs.
    public static let failedPrecondition = Self(rawValue: 9)
    /// The call was aborted, usually by a concurrency conflict.
    public static let aborted = Self(rawValue: 10)
    /// The call went past a valid range (reading past the end).
    public static let outOfRange = Self(rawValue: 11)
    /// The server does not implement the method.
    public static let unimplemented = Self(rawValue: 12)
    /// An invariant of the server broke (`INTERNAL`).
    public static let internalError = Self(rawValue: 13)
    /// The service is unavailable for now; the call may succeed if sent again.
    public static let unavailable = Self(rawValue: 14)
    /// Data was lost or corrupted beyond recovery.
    public static let dataLoss = Self(rawValue: 15)
    /// The call has no valid credentials.
    public static let unauthenticated = Self(rawValue: 16)

    private static let names = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
        "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED",
    ]

    /// The specification's name (`UNAVAILABLE`), or the number for codes it does not define.
    public var description: String {
        Self.names.indices.contains(rawValue) ? Self.names[rawValue] : "status \(rawValue)"
    }
}
