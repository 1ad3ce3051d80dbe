// Extracted from Sources/APIGRPC/APIGRPC.docc/APIGRPC.md by `make doc-samples`. Do not edit.

import APIRuntime
import ExampleClient
import Foundation

enum APIGRPCAPIGRPCSamples {
    // Sources/APIGRPC/APIGRPC.docc/APIGRPC.md:16
    static func sample16() async throws {
        let reply = try await SayHelloAPI { $0.name = "Ada" }.start()
        print(reply.message)
    }
}
