import APIRuntime

/// The transports `APIManager` uses unless its configuration gives a `transportFactory`: one
/// AsyncHTTPClient per `http`/`https` session, one grpc-swift client per `grpc`/`grpcs` target.
///
/// Nothing calls this by name: the manager looks the type up at run time (`TransportProvider`
/// says why), so it must keep its name and module.
public enum StandardTransports: TransportProvider {
    public static func transport(for key: SessionKey, settings: SessionSettings, configuration: APIManager.Configuration) -> any HTTPTransport {
        key.isGRPC ? makeGRPCTransport(key, configuration: configuration) : AsyncHTTPClientTransport(settings: settings, configuration: configuration)
    }
}
