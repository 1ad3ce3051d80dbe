import APIAsyncHTTPClient
import APIRuntime
import APITestSupport
import Foundation
import Testing

/// Runs `body` with a loopback server answering through `handler` and a manager whose example and
/// reference workspace base URLs point at that server. The manager is shut down afterwards,
/// whatever happens; the server keeps running (see `LoopbackServer`).
public func withServer<T>(
    configure: (inout APIManager.Configuration) -> Void = { _ in },
    _ handler: @escaping LoopbackServer.Handler,
    body: (LoopbackServer, APIManager) async throws -> T
) async throws -> T {
    let server = try await LoopbackServer.start(handler)
    var configuration = APIManager.Configuration()
    configuration.httpTransport = testHTTPTransport
    configuration.baseURLOverrides = [
        "https://api.example.com/v1": server.baseURL + "/v1",
        "https://auth.example.com": server.baseURL + "/auth",
        "https://reference.example.com/api/": server.baseURL + "/api/",
        "https://calc.example.com/v2/jsonrpc": server.baseURL + "/v2/jsonrpc",
        "https://legacy.example.com/gateway": server.baseURL + "/legacy/gateway",
    ]
    configure(&configuration)
    return try await withManager(configuration) { manager in try await body(server, manager) }
}

/// The HTTP transport the wire tests run on: `TEST_HTTP_TRANSPORT=urlsession` (the default, as in
/// apps) or `asynchttpclient`. `make test` runs the wire tests once with each.
public let testHTTPTransport: TransportFactory = {
    switch ProcessInfo.processInfo.environment["TEST_HTTP_TRANSPORT"] ?? "urlsession" {
    case "urlsession": return .urlSession
    case "asynchttpclient": return .asyncHTTPClient
    case let other: fatalError("TEST_HTTP_TRANSPORT=\(other): expected urlsession or asynchttpclient")
    }
}()

/// Whether the test process runs under ThreadSanitizer (`make test-tsan`), found by its runtime's
/// entry point: resident memory means little there, as the sanitizer's shadow memory grows with
/// every byte the process touches, and every step takes several times as long.
public let runsUnderThreadSanitizer: Bool = {
    guard let program = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(program) }
    return dlsym(program, "__tsan_init") != nil
}()
