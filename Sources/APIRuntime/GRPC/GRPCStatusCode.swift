/// A gRPC status code (https://grpc.github.io/grpc/core/md_doc_statuscodes.html), as the server
/// ended the call with it.
public struct GRPCStatusCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let ok = Self(rawValue: 0)
    public static let cancelled = Self(rawValue: 1)
    public static let unknown = Self(rawValue: 2)
    public static let invalidArgument = Self(rawValue: 3)
    public static let deadlineExceeded = Self(rawValue: 4)
    public static let notFound = Self(rawValue: 5)
    public static let alreadyExists = Self(rawValue: 6)
    public static let permissionDenied = Self(rawValue: 7)
    public static let resourceExhausted = Self(rawValue: 8)
    public static let failedPrecondition = Self(rawValue: 9)
    public static let aborted = Self(rawValue: 10)
    public static let outOfRange = Self(rawValue: 11)
    public static let unimplemented = Self(rawValue: 12)
    public static let internalError = Self(rawValue: 13)
    public static let unavailable = Self(rawValue: 14)
    public static let dataLoss = Self(rawValue: 15)
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
