// Extracted from Sources/APIAsyncHTTPClient/APIAsyncHTTPClient.docc/APIAsyncHTTPClient.md by `make doc-samples`. Do not edit.

import APIAsyncHTTPClient
import APIRuntime
import ExampleClient
import Foundation

enum APIAsyncHTTPClientAPIAsyncHTTPClientSamples {
    // Sources/APIAsyncHTTPClient/APIAsyncHTTPClient.docc/APIAsyncHTTPClient.md:12
    func configure() {
        APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }
    }
}
