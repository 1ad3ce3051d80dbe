// Extracted from docs/manifest.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum ManifestSamples {
    // docs/manifest.md:319
    static func sample319() async throws {
        for try await event in try await UserActivityAPI(role: .admin).start() {
            print(event.data.action, event.id ?? "")
        }
    }

    // docs/manifest.md:368
    static func sample368() async throws {
        do {
            try await UpdateUserAPI(id: 7, name: "", etag: tag).start()
        } catch {
            switch error.serverError {
            case let invalid as ValidationErrors: show(invalid.errors)
            case let problem as Problem: show(problem.title)
            default: show(error)                     // undeclared, or not the declared type
            }
        }
    }

    // docs/manifest.md:390
    static func sample390() async throws {
        let (user, headers) = try await UpdateUserAPI(id: 7, etag: tag).startWithHeaders()
        headers.rateLimitRemaining                   // Int?: nil when absent or not a number
    }

    // docs/manifest.md:597
    static func sample597() async throws {
        let batch = JSONRPCBatch()
        let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
        let difference = batch.add(SubtractAPI(minuend: 42, subtrahend: 23))
        batch.add(NotifyHelloAPI(value: 7))           // a notification: nothing comes back for it
        try await batch.send()
        let total = try sum.get()                     // 7; each call has its own result or error
    }
}
