// Extracted from Sources/APIEventStreams/APIEventStreams.docc/APIEventStreams.md by `make doc-samples`. Do not edit.

import APIEventStreams
import APIRuntime
import ExampleClient
import Foundation

enum APIEventStreamsAPIEventStreamsSamples {
    // Sources/APIEventStreams/APIEventStreams.docc/APIEventStreams.md:13
    func follow() async throws {
        for try await event in try await UserActivityAPI().start() {
            print(event.data.action)
        }
    }
}
