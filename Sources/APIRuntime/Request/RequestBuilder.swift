import APIWireFormat
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

    /// A request with no parameters yet; generated initializers add theirs.
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
                guard !file.contentType.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                    throw APIError(api: api, reason: .invalidRequest(message: "the content type of the file part '\(name)' holds a line break or NUL"))
                }
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
    /// The request for `definition` at `base`, the call's own `headers` sent last, due at `deadline`.
    /// `package` for `apigen verify`, which names the request it sends as the runtime builds it.
    package func makeRequest(
        for definition: APIDefinition, at base: BaseURL, headers callHeaders: [(name: String, value: String)],
        timeout: Duration, deadline: ContinuousClock.Instant
    ) throws(APIError) -> APIRequest {
        func invalid(_ message: String) -> APIError {
            APIError(api: definition.name, reason: .invalidRequest(message: message))
        }
        var path = base.path
        do throws(PathTemplate.FillingError) {
            // The last value given for a name wins, as a dictionary's would.
            try definition.pathTemplate.append(to: &path) { name in pathValues.last { $0.name == name }?.value }
        } catch {
            switch error {
            case .missing(let name): throw invalid("no value for path parameter '\(name)'")
            case .empty(let name): throw invalid("path parameter '\(name)' is empty, which would name another resource")
            }
        }
        if path.isEmpty { path = "/" }
        for (index, item) in queryItems.enumerated() {
            path += index == 0 ? "?" : "&"
            path += PercentEncoding.component(item.name)
            path += "="
            path += PercentEncoding.component(item.value)
        }

        let body = try encodeBody(api: definition.name)
        if let name = definition.invalidHeaderName {
            throw invalid("'\(name)' is not a valid header name")
        }
        // Later layers win: the workspace's and the API's (checked when the definition was made),
        // then the parameters', then the call's own. A body's content type gives way to any of them.
        var fields = definition.fixedHeaderFields
        if let contentType = body.contentType, fields[.contentType] == nil {
            fields[.contentType] = contentType
        }
        func set(_ layer: [(name: String, value: String)]) throws(APIError) {
            for header in layer {
                guard let name = HTTPField.Name(header.name) else {
                    throw invalid("'\(header.name)' is not a valid header name")
                }
                if !name.isFraming { fields[name] = header.value }
            }
        }
        try set(headers)
        try set(callHeaders)
        return APIRequest(
            api: definition.name,
            head: HTTPRequest(method: definition.method, scheme: base.scheme, authority: base.authority, path: path, headerFields: fields),
            body: body.data, streamedBody: body.streamed, timeout: timeout, deadline: deadline,
            messageProducer: messageProducer, grpcMethod: definition.wire.grpcMethod
        )
    }

    /// The encoded body: whole, or streamed (files, sequences), with its content type.
    private func encodeBody(api: String) throws(APIError) -> (data: Data?, streamed: HTTPBody?, contentType: String?) {
        func invalid(_ message: String, _ underlying: any Error) -> APIError {
            APIError(api: api, reason: .invalidRequest(message: message), underlying: underlying)
        }
        if let encodeMessage {
            do {
                return (try encodeMessage(), nil, nil)
            } catch {
                throw invalid("cannot serialize the request message: \(error)", error)
            }
        }
        if !jsonFields.fields.isEmpty || !positionalFields.isEmpty {
            do {
                let encoder = JSONCoding.encoder
                let data = try positionalFields.isEmpty ? encoder.encode(jsonFields) : encoder.encode(PositionalFields(values: positionalFields))
                return (data, nil, "application/json")
            } catch {
                throw invalid("cannot encode the JSON body: \(error)", error)
            }
        }
        if !formFields.isEmpty {
            let form = formFields
                .map { PercentEncoding.form($0.name) + "=" + PercentEncoding.form($0.value) }
                .joined(separator: "&")
            return (Data(form.utf8), nil, "application/x-www-form-urlencoded")
        }
        if let jsonValue {
            do {
                return (try JSONCoding.encoder.encode(jsonValue), nil, "application/json")
            } catch {
                throw invalid("cannot encode the JSON body: \(error)", error)
            }
        }
        if let rawBody {
            return (rawBody.body.data, rawBody.body.data == nil ? rawBody.body : nil, rawBody.contentType)
        }
        if !parts.isEmpty {
            let form = try multipartBody(api: api)
            let encoded = form.body()
            return (encoded.data, encoded.data == nil ? encoded : nil, form.contentType)
        }
        return (nil, nil, nil)
    }
}
