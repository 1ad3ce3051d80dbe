// Extracted from Sources/APIRuntime/APIRuntime.docc/ChoosingATransport.md by `make doc-samples`. Do not edit.

import APIAsyncHTTPClient
import APIRuntime
import ExampleClient
import Foundation
import HTTPTypes

enum APIRuntimeChoosingATransportSamples {
    // Sources/APIRuntime/APIRuntime.docc/ChoosingATransport.md:30
    func configure() {
        APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }
    }

    // Sources/APIRuntime/APIRuntime.docc/ChoosingATransport.md:57
    struct EchoTransport: HTTPTransport {
        func send(_ request: HTTPRequest, body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody) {
            (HTTPResponse(status: .ok), body ?? HTTPBody(Data()))
        }
        func shutdown() async {}
    }

    func echoManager() -> APIManager {
        var configuration = APIManager.Configuration()
        configuration.httpTransport = .http(name: "echo") { _, _ in EchoTransport() }
        return APIManager(configuration: configuration)
    }
}
