/// The error codes JSON-RPC 2.0 reserves (section 5.1 of the specification).
public struct JSONRPCErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The error object's `code`.
    public var rawValue: Int

    /// The code with this number, reserved or the server's own.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Invalid JSON was received by the server.
    public static let parseError = JSONRPCErrorCode(rawValue: -32700)
    /// The JSON sent is not a valid Request object.
    public static let invalidRequest = JSONRPCErrorCode(rawValue: -32600)
    /// The method does not exist or is not available.
    public static let methodNotFound = JSONRPCErrorCode(rawValue: -32601)
    /// Invalid method parameters.
    public static let invalidParams = JSONRPCErrorCode(rawValue: -32602)
    /// Internal JSON-RPC error.
    public static let internalError = JSONRPCErrorCode(rawValue: -32603)

    /// -32000 to -32099: reserved for implementation-defined server errors.
    public var isServerError: Bool { (-32099)...(-32000) ~= rawValue }

    /// The specification's name for a reserved code (`method not found`); nil for others.
    public var name: String? {
        switch self {
        case .parseError: "parse error"
        case .invalidRequest: "invalid request"
        case .methodNotFound: "method not found"
        case .invalidParams: "invalid params"
        case .internalError: "internal error"
        default: isServerError ? "server error" : nil
        }
    }

    /// `-32601 (method not found)`, or the number alone.
    public var description: String { name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)" }
}

extension APIError {
    /// The JSON-RPC error code, when the server answered with a JSON-RPC error object.
    public var jsonRPCCode: JSONRPCErrorCode? {
        if case .rpcError(let code, _, _) = reason { return JSONRPCErrorCode(rawValue: code) }
        return nil
    }
}
