import APIWireFormat

/// Any JSON value: what the runtime's APIs, generated models (`additionalProperties`) and apps
/// read, from the wire-format module every part of apigen shares.
public typealias JSONValue = APIWireFormat.JSONValue

/// Percent-encoding for the parts of a request, from the wire-format module every part of apigen
/// shares.
public typealias PercentEncoding = APIWireFormat.PercentEncoding
