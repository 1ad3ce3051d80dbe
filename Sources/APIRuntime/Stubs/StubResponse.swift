import Foundation
import HTTPTypes

/// A canned answer for an API: from `sample:` in its manifest, or set by a test. It takes the
/// place of the network at the end of the interceptor chain, so interceptors (logging, auth,
/// metrics) see a stubbed call exactly as they see a real one.
public struct StubResponse: Sendable {
    /// The HTTP status answered.
    public var status: Int
    /// The reply's header fields.
    public var headers: [(name: String, value: String)]
    /// The reply's body.
    public var body: Data
    /// How long the answer takes, to preview loading states.
    public var delay: Duration

    /// An answer with `status`, `headers` and `body`, after `delay`.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data(), delay: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// A JSON body given as text, as manifests carry it.
    public init(status: Int = 200, json: String, delay: Duration = .zero) {
        self.init(status: status, headers: [(name: "Content-Type", value: "application/json")], body: Data(json.utf8), delay: delay)
    }

    func response() -> APIResponse {
        var fields = HTTPFields()
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields[name] = header.value }
        }
        return APIResponse(status: HTTPResponse.Status(code: status), headerFields: fields, body: body)
    }
}

/// The stubs a manager answers with instead of the network.
public struct StubSet: Sendable {
    /// Answer every API that declares a `sample:` in its manifest from that sample.
    public var usesManifestSamples: Bool
    private var byAPI: [String: @Sendable (APIRequest) -> StubResponse] = [:]

    /// An empty set; with `usesManifestSamples`, every API with a `sample:` is answered from it.
    public init(usesManifestSamples: Bool = false) {
        self.usesManifestSamples = usesManifestSamples
    }

    /// Answers the API named `api` (its manifest name) with `response`.
    public mutating func stub(_ api: String, with response: StubResponse) {
        byAPI[api] = { _ in response }
    }

    /// Answers the API named `api` with what `respond` makes of each request.
    public mutating func stub(_ api: String, _ respond: @escaping @Sendable (APIRequest) -> StubResponse) {
        byAPI[api] = respond
    }

    /// The answer set for the API by name, as the server writes it.
    func stub(for request: APIRequest, definition: APIDefinition) -> StubResponse? {
        byAPI[definition.name].map { $0(request) }
    }

    /// The manifest's `sample:`, when samples are on.
    func sample(for definition: APIDefinition) -> StubResponse? {
        usesManifestSamples ? definition.sample : nil
    }
}
