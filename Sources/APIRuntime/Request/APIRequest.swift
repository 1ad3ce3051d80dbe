import Foundation
import HTTPTypes

/// A call as it goes to the wire, the same shape for every protocol: interceptors and transports see this.
public struct APIRequest: Sendable {
    /// The API's name, for errors, logs and metrics.
    public var api: String
    public var method: HTTPRequest.Method
    public var url: URL
    public var headerFields: HTTPFields
    public var body: Data?
    public var timeout: Duration

    public init(api: String, method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Data? = nil, timeout: Duration) {
        self.api = api
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.timeout = timeout
    }
}

/// The server's answer, before any protocol unwraps it.
public struct APIResponse: Sendable {
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: Data

    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}
