import Foundation
import HTTPTypes

/// Collects an API's parameters by where they travel. Generated code makes one in its
/// initializer, a call a parameter:
///
/// ```swift
/// RequestBuilder()
///     .path("id", id)
///     .query("limit", limit)
/// ```
///
/// and the base API class turns it into an `APIRequest` when the call starts, so that an encoding
/// failure is still `start()`'s error.
///
/// The methods consume the builder and return it: a chain is one expression, which compiles to
/// less code than filling an `inout` builder in a closure, and moves the builder from call to
/// call without copying its arrays.
public struct RequestBuilder: Sendable {
    /// A list, not a dictionary: an API has a few path parameters, and a dictionary of them costs
    /// each call an allocation and two hashes per name.
    var pathValues: [(name: String, value: String)] = []
    var queryItems: [(name: String, value: String)] = []
    var headers: [(name: String, value: String)] = []
    var jsonFields = JSONFields()
    var formFields: [(name: String, value: String)] = []
    var positionalFields: [any Encodable & Sendable] = []
    /// The whole body as one JSON value (`body: User` in a manifest).
    var jsonValue: (any Encodable & Sendable)?
    /// The whole body as bytes of a content type (`body: bytes`).
    var rawBody: (contentType: String, body: HTTPBody)?
    var parts: [(name: String, part: FormPart)] = []
    /// Serializes the one protobuf message of a gRPC call, when the request is made (so that a
    /// failure is reported like any other encoding error, naming the API).
    package var encodeMessage: (@Sendable () throws -> Data)?
    package var messageProducer: MessageProducer?

    public init() {}

    /// Fills the `{name}` placeholder of the path template.
    public consuming func path(_ name: String, _ value: some ParameterValue) -> RequestBuilder {
        pathValues.append((name, value.parameterText))
        return self
    }

    /// Adds a query item; nil adds nothing.
    public consuming func query(_ name: String, _ value: (some ParameterValue)?) -> RequestBuilder {
        if let value { queryItems.append((name, value.parameterText)) }
        return self
    }

    /// Adds one query item per element (`?tag=a&tag=b`); nil adds nothing.
    public consuming func query(_ name: String, _ values: [some ParameterValue]?) -> RequestBuilder {
        for value in values ?? [] { queryItems.append((name, value.parameterText)) }
        return self
    }

    /// Sets a header; nil sets nothing.
    public consuming func header(_ name: String, _ value: (some ParameterValue)?) -> RequestBuilder {
        if let value { headers.append((name, value.parameterText)) }
        return self
    }

    /// Adds a key to the JSON body object; nil leaves the key out.
    public consuming func body(_ name: String, _ value: (some Encodable & Sendable)?) -> RequestBuilder {
        if let value { jsonFields.fields.append((name, value)) }
        return self
    }

    /// Appends a by-position RPC parameter; nil is sent as `null` so later positions stay put.
    public consuming func positional(_ value: (some Encodable & Sendable)?) -> RequestBuilder {
        if let value {
            positionalFields.append(value)
        } else {
            positionalFields.append(JSONValue.null)
        }
        return self
    }

    /// Adds a field to a form-urlencoded body; nil adds nothing.
    public consuming func form(_ name: String, _ value: (some ParameterValue)?) -> RequestBuilder {
        if let value { formFields.append((name, value.parameterText)) }
        return self
    }

    /// Adds one form field per element; nil adds nothing.
    public consuming func form(_ name: String, _ values: [some ParameterValue]?) -> RequestBuilder {
        for value in values ?? [] { formFields.append((name, value.parameterText)) }
        return self
    }

    /// Sends `value` as the whole body, in JSON.
    public consuming func jsonBody(_ value: some Encodable & Sendable) -> RequestBuilder {
        jsonValue = value
        return self
    }

    /// Sends `body` as the whole body, with the content type given first.
    public consuming func bytes(_ contentType: String, _ body: HTTPBody) -> RequestBuilder {
        rawBody = (contentType, body)
        return self
    }
}

/// One part of a `multipart/form-data` body, as `RequestBuilder` collects it.
enum FormPart: Sendable {
    case text(String)
    case data(Data)
    case file(UploadFile)
    case json(any Encodable & Sendable)
}

extension RequestBuilder {
    /// Adds a text part to a multipart body; nil adds nothing.
    public consuming func part(_ name: String, _ value: (some ParameterValue)?) -> RequestBuilder {
        if let value { parts.append((name, .text(value.parameterText))) }
        return self
    }

    /// Adds one text part per element, each under `name`; nil adds nothing.
    public consuming func part(_ name: String, _ values: [some ParameterValue]?) -> RequestBuilder {
        for value in values ?? [] { parts.append((name, .text(value.parameterText))) }
        return self
    }

    /// Adds a part of raw bytes (`application/octet-stream`); nil adds nothing.
    public consuming func part(_ name: String, _ data: Data?) -> RequestBuilder {
        if let data { parts.append((name, .data(data))) }
        return self
    }

    /// Adds a file part; nil adds nothing.
    public consuming func part(_ name: String, _ file: UploadFile?) -> RequestBuilder {
        if let file { parts.append((name, .file(file))) }
        return self
    }

    /// Adds one file part per file, each under `name`; nil adds nothing.
    public consuming func part(_ name: String, _ files: [UploadFile]?) -> RequestBuilder {
        for file in files ?? [] { parts.append((name, .file(file))) }
        return self
    }

    /// Adds a part holding `value` in JSON (`application/json`); nil adds nothing.
    public consuming func jsonPart(_ name: String, _ value: (some Encodable & Sendable)?) -> RequestBuilder {
        if let value { parts.append((name, .json(value))) }
        return self
    }

    /// The multipart body of the collected parts; a file that cannot be read is an invalid request
    /// naming it.
    func multipartBody(api: String) throws(APIError) -> MultipartForm {
        var form = MultipartForm()
        for (name, part) in parts {
            switch part {
            case .text(let text):
                form.append(name: name, text: text)
            case .data(let data):
                form.append(name: name, data: data, contentType: "application/octet-stream")
            case .json(let value):
                do {
                    form.append(name: name, data: try JSONCoding.encoder.encode(value), contentType: "application/json")
                } catch {
                    throw APIError(api: api, reason: .invalidRequest(message: "cannot encode the part '\(name)' in JSON: \(error)"), underlying: error)
                }
            case .file(let file):
                do {
                    try form.append(name: name, file: file)
                } catch {
                    let path = if case .file(let url) = file.contents { url.path } else { file.fileName }
                    throw APIError(api: api, reason: .invalidRequest(message: "the file part '\(name)' cannot be read from \(path): \(error.localizedDescription)"), underlying: error)
                }
            }
        }
        return form
    }
}

extension RequestBuilder {
    /// The settings one call resolves from the instance, then the API definition, then the workspace.
    struct Resolved {
        var baseURL: String?
        var headers: [(name: String, value: String)]
        var timeout: Duration
    }

    func makeRequest(for definition: APIDefinition, _ resolved: Resolved) throws(APIError) -> APIRequest {
        func invalid(_ message: String, _ underlying: (any Error)? = nil) -> APIError {
            APIError(api: definition.name, reason: .invalidRequest(message: message), underlying: underlying)
        }
        guard let baseURL = resolved.baseURL else {
            throw invalid("no base URL: set 'baseURL' in the workspace defaults or the API, or on the instance")
        }
        var text = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        try definition.pathTemplate.append(to: &text, values: pathValues, api: definition.name)
        for (index, item) in queryItems.enumerated() {
            text += index == 0 ? "?" : "&"
            text += PercentEncoding.component(item.name)
            text += "="
            text += PercentEncoding.component(item.value)
        }
        guard Self.hasSchemeAndHost(text), let url = URL(string: text) else {
            throw invalid("'\(text)' is not an absolute URL")
        }

        var fields = HTTPFields()
        var body: Data?
        var streamedBody: HTTPBody?
        if let encodeMessage {
            do {
                body = try encodeMessage()
            } catch {
                throw invalid("cannot serialize the request message: \(error)", error)
            }
        } else if !jsonFields.fields.isEmpty || !positionalFields.isEmpty {
            do {
                let encoder = JSONCoding.encoder
                body = try positionalFields.isEmpty ? encoder.encode(jsonFields) : encoder.encode(PositionalFields(values: positionalFields))
            } catch {
                throw invalid("cannot encode the JSON body: \(error)", error)
            }
            fields[.contentType] = "application/json"
        } else if !formFields.isEmpty {
            let form = formFields
                .map { PercentEncoding.form($0.name) + "=" + PercentEncoding.form($0.value) }
                .joined(separator: "&")
            body = Data(form.utf8)
            fields[.contentType] = "application/x-www-form-urlencoded"
        } else if let jsonValue {
            do {
                body = try JSONCoding.encoder.encode(jsonValue)
            } catch {
                throw invalid("cannot encode the JSON body: \(error)", error)
            }
            fields[.contentType] = "application/json"
        } else if let rawBody {
            if let data = rawBody.body.data { body = data } else { streamedBody = rawBody.body }
            fields[.contentType] = rawBody.contentType
        } else if !parts.isEmpty {
            let form = try multipartBody(api: definition.name)
            let encoded = form.body()
            if let data = encoded.data { body = data } else { streamedBody = encoded }
            fields[.contentType] = form.contentType
        }
        // Later layers win: workspace, API, parameters, then the instance. (Set layer by layer:
        // concatenating the layers made new arrays on every call.)
        func set(_ layer: [(name: String, value: String)]) throws(APIError) {
            for header in layer {
                guard let name = HTTPField.Name(header.name) else {
                    throw invalid("'\(header.name)' is not a valid header name")
                }
                fields[name] = header.value
            }
        }
        if definition.inheritsDefaultHeaders { try set(definition.defaults.headers) }
        try set(definition.headers)
        try set(headers)
        try set(resolved.headers)
        return APIRequest(
            api: definition.name, method: definition.method, url: url,
            headerFields: fields, body: body, streamedBody: streamedBody, timeout: resolved.timeout,
            messageProducer: messageProducer, rpc: definition.rpc
        )
    }

    /// Whether `text` starts `scheme://` and names a host, checked over its bytes: asking the
    /// parsed `URL` for its scheme and host builds two strings a call, and the session's key asks
    /// again anyway. The scan runs over the string's contiguous UTF-8 (`withUTF8`), cheaper than
    /// `String.UTF8View`'s indices.
    static func hasSchemeAndHost(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { hasSchemeAndHost(bytes: $0) }
    }

    private static func hasSchemeAndHost(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
              bytes[..<colon].allSatisfy(isSchemeByte), bytes.count >= colon + 3,
              bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return false }
        let authorityStart = colon + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, !isAuthorityEnd(bytes[authorityEnd]) { authorityEnd += 1 }
        // The host follows any `user@`, and ends at a `:port` (an IPv6 address is in brackets).
        var hostStart = authorityStart
        for index in authorityStart..<authorityEnd where bytes[index] == UInt8(ascii: "@") { hostStart = index + 1 }
        guard hostStart < authorityEnd else { return false }
        if bytes[hostStart] == UInt8(ascii: "[") {
            return authorityEnd - hostStart > 2 && bytes[hostStart..<authorityEnd].contains(UInt8(ascii: "]"))
        }
        return bytes[hostStart] != UInt8(ascii: ":")
    }

    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
