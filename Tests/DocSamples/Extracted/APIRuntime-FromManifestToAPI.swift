// Extracted from Sources/APIRuntime/APIRuntime.docc/FromManifestToAPI.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum APIRuntimeFromManifestToAPISamples {
    // Sources/APIRuntime/APIRuntime.docc/FromManifestToAPI.md:70
    static func sample70() async throws {
        let user = try await GetUserAPI(id: 7).start()
        print(user.name, user.role)
    }
}
