import APIRuntime
import APITestSupport
import ExampleClient
import Testing

/// Calls SayHello at `grpcs://<host>:<port>` with `settings` for `host`, in a manager of its own:
/// the reply's message, or the call's error.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
func sayHelloOverTLS(port: Int, host: String = "localhost", settings: TLSSettings?) async throws -> Result<String, APIError> {
    var configuration = APIManager.Configuration()
    configuration.tls[host] = settings
    return try await withManager(configuration) { manager in
        let api = SayHelloAPI { $0.name = "Ada" }.using(manager)
        api.options.baseURL = "grpcs://\(host):\(port)"
        api.options.timeout = .seconds(30)
        do {
            return .success(try await api.start().message)
        } catch let error as APIError {
            return .failure(error)
        }
    }
}

/// The kind of TLS failure a SayHello call ended with; nil (and a recorded issue) otherwise.
func tlsFailureKind(_ result: Result<String, APIError>, sourceLocation: SourceLocation = #_sourceLocation) -> TLSFailure.Kind? {
    guard case .failure(let error) = result, case .tls(let failure) = error.reason else {
        Issue.record("expected a TLS failure, got \(result)", sourceLocation: sourceLocation)
        return nil
    }
    #expect(error.api == "SayHello", sourceLocation: sourceLocation)
    return failure.kind
}
