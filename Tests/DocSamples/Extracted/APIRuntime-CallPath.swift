// Extracted from Sources/APIRuntime/APIRuntime.docc/CallPath.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum APIRuntimeCallPathSamples {
    // Sources/APIRuntime/APIRuntime.docc/CallPath.md:12
    static func sample12() async throws {
        let user = try await GetUserAPI(id: 7).start()
    }

    // Sources/APIRuntime/APIRuntime.docc/CallPath.md:113
    static func sample113() async throws {
        let reply = try await GetUserAPI(id: 7).startWithMetadata()
        print(reply.value.name, reply.headerFields[.contentType] ?? "")
    }
}
