// Extracted from Sources/APIRuntime/APIRuntime.docc/HandlingErrors.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum APIRuntimeHandlingErrorsSamples {
    // Sources/APIRuntime/APIRuntime.docc/HandlingErrors.md:14
    func rename(tag: String) async {
        do {
            try await UpdateUserAPI(id: 7, name: "Ada", etag: tag).start()
        } catch {
            switch error.reason {
            case .httpStatus(code: 412, _):
                print("changed meanwhile: fetch it again")
            case .timeout, .transport:
                print("offline? try again later")
            default:
                print(error)   // "UpdateUser: HTTP 500 (27-byte body)"
            }
        }
    }

    // Sources/APIRuntime/APIRuntime.docc/HandlingErrors.md:56
    func save(tag: String) async {
        do {
            try await UpdateUserAPI(id: 7, name: "Ada", etag: tag).start()
        } catch {
            if let invalid = error.serverError as? ValidationErrors {
                print(invalid.errors)
            }
        }
    }
}
