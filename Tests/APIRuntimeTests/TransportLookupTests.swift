@testable import APIRuntime
import APITransports
import Foundation
import Testing

/// The manager finds the standard transports by type name, since APIRuntime cannot import the
/// module they live in (TransportProvider.swift says why).
@Suite("Finding the standard transports at run time")
struct TransportLookupTests {
    @Test("The name the manager looks up is APITransports.StandardTransports's, and it is found")
    func nameMatchesTheType() {
        #expect(StandardTransportLookup.typeName == _mangledTypeName(StandardTransports.self))
        #expect(StandardTransportLookup.provider == StandardTransports.self)
    }

    @Test("A name that finds nothing, or a type that is no provider, is nil")
    func unknownNames() {
        #expect(StandardTransportLookup.find("13APITransports14NoSuchProviderO") == nil)
        #expect(StandardTransportLookup.find(_mangledTypeName(APIManager.self)!) == nil)
    }

    @Test("Without the module every call fails with an error that names it, and the API")
    func missingModule() async throws {
        let key = SessionKey(scheme: "https", host: "example.com", port: 443)
        let transport = StandardTransportLookup.transport(
            for: key, settings: SessionSettings(maxConnectionsPerHost: 1), configuration: APIManager.Configuration(), provider: nil
        )
        let request = APIRequest(api: "GetUserAPI", method: .get, url: URL(string: "https://example.com/users/7")!, timeout: .seconds(1))
        let error = await #expect(throws: APIError.self) { try await transport.send(request) }
        #expect(error?.api == "GetUserAPI")
        guard case .transport(let message)? = error?.reason else {
            Issue.record("expected .transport, got \(String(describing: error?.reason))")
            return
        }
        #expect(message.contains("the APITransports module is not linked"))
    }
}
