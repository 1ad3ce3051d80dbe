/// A session that cannot exist; each call fails with the reason.
package struct FailingTransport: HTTPTransport {
    let message: String

    package init(message: String) {
        self.message = message
    }

    package func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        throw APIError(api: request.api, reason: .transport(message: message))
    }

    package func shutdown() async {}
}
