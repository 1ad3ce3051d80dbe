// Extracted from Sources/APIRuntime/APIRuntime.docc/APIRuntime.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum APIRuntimeAPIRuntimeSamples {
    // Sources/APIRuntime/APIRuntime.docc/APIRuntime.md:12
    static func sample12() async throws {
        let user = try await GetUserAPI(id: 7).start()
    }
}
