/// Makes the transport of a session: what `APIManager` uses when its configuration gives no
/// `transportFactory`.
///
/// The standard provider, `APITransports.StandardTransports` (AsyncHTTPClient for `http` and
/// `https`, grpc-swift for `grpc` and `grpcs`), lives in a module of its own that this one does not
/// import, and the `APIRuntime` product links both. Generated client modules import only this
/// module, so none of their compile jobs loads the 57 modules NIO, AsyncHTTPClient and grpc-swift
/// bring: that loading was a tenth of the instructions of every job compiling API files
/// (BENCHMARKS.md §2, session 10). Swift has no way for a module to register itself when it is
/// linked, so the manager finds the provider at run time by its type's name.
public protocol TransportProvider: SendableMetatype {
    static func transport(for key: SessionKey, settings: SessionSettings, configuration: APIManager.Configuration) -> any HTTPTransport
}

/// Finds the standard provider once, or explains on every call why there is none.
enum StandardTransportLookup {
    /// The mangled name of `APITransports.StandardTransports` (`TransportLookupTests` checks it
    /// against the type itself).
    static let typeName = "13APITransports18StandardTransportsO"

    static let provider = find(typeName)

    static func find(_ mangledName: String) -> (any TransportProvider.Type)? {
        _typeByName(mangledName) as? any TransportProvider.Type
    }

    static func transport(
        for key: SessionKey, settings: SessionSettings, configuration: APIManager.Configuration,
        provider: (any TransportProvider.Type)? = provider
    ) -> any HTTPTransport {
        guard let provider else {
            return FailingTransport(message: "no transport for \(key): the APITransports module is not linked (depend on the APIRuntime product, which includes it, or give APIManager.Configuration a transportFactory)")
        }
        return provider.transport(for: key, settings: settings, configuration: configuration)
    }
}
