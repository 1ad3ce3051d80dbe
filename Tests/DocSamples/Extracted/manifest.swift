// Extracted from docs/manifest.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum ManifestSamples {
    // docs/manifest.md:333
    static func sample333() async throws {
        for try await event in try await UserActivityAPI(role: .admin).start() {
            print(event.data.action, event.id ?? "")
        }
    }

    // docs/manifest.md:382
    static func sample382() async throws {
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

    // docs/manifest.md:404
    static func sample404() async throws {
        let (user, headers) = try await UpdateUserAPI(id: 7, etag: tag).startWithHeaders()
        headers.rateLimitRemaining                   // Int?: nil when absent or not a number
    }

    // docs/manifest.md:616
    static func sample616() async throws {
        let batch = JSONRPCBatch()
        let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
        let difference = batch.add(SubtractAPI(minuend: 42, subtrahend: 23))
        batch.add(NotifyHelloAPI(value: 7))           // a notification: nothing comes back for it
        try await batch.send()
        let total = try sum.get()                     // 7; each call has its own result or error
    }
}
