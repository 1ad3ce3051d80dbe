import APIAsyncHTTPClient
import APIRuntime
import AsyncHTTPClient
import BenchClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import GRPCProtobuf
import NIOCore
import NIOFoundationCompat

/// Both sides of each comparison, configured alike: the manager (the bench workspace's defaults:
/// `frequency: reject`, 5 connections per host, a 30 s timeout) and the raw clients it is built
/// on, AsyncHTTPClient and URLSession (5 connections per host) and grpc-swift 2 (one HTTP/2
/// connection, the same 30 s deadline). Every call decodes its reply into the same type and checks it.
final class Clients: Sendable {
    let manager: APIManager
    /// The same manager's configuration on the URLSession transport.
    let managerOverURLSession: APIManager
    let http: HTTPClient
    let urlSession: URLSession
    let grpc: GRPCClient<HTTP2ClientTransport.Posix>
    private let grpcConnections: Task<Void, Never>
    private let baseURL: String

    init(httpPort: Int, grpcPort: Int) throws {
        baseURL = "http://127.0.0.1:\(httpPort)"
        var configuration = APIManager.Configuration()
        // Measured against raw AsyncHTTPClient, so the manager sends through it too.
        configuration.httpTransport = .asyncHTTPClient
        configuration.baseURLOverrides = [
            "https://api.example.com/v1": baseURL,
            "grpc://localhost:50051": "grpc://127.0.0.1:\(grpcPort)",
        ]
        manager = APIManager(configuration: configuration)
        configuration.httpTransport = .urlSession
        managerOverURLSession = APIManager(configuration: configuration)

        let sessionConfiguration = URLSessionConfiguration.default
        sessionConfiguration.httpMaximumConnectionsPerHost = 5
        urlSession = URLSession(configuration: sessionConfiguration)

        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 5)
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)

        let grpc = GRPCClient(transport: try HTTP2ClientTransport.Posix(target: .dns(host: "127.0.0.1", port: grpcPort), transportSecurity: .plaintext))
        self.grpc = grpc
        grpcConnections = Task { try? await grpc.runConnections() }
    }

    func shutdown() async throws {
        await manager.shutdown()
        await managerOverURLSession.shutdown()
        urlSession.finishTasksAndInvalidate()
        try await http.shutdown()
        grpc.beginGracefulShutdown()
        await grpcConnections.value
    }

    // MARK: REST

    /// GET through `manager`, or through the manager on AsyncHTTPClient.
    func managerGET(_ manager: APIManager? = nil) -> Arm {
        Arm(name: "manager") { [manager = manager ?? self.manager] i in
            let item = try await GetItemAPI(id: i, limit: 10).using(manager).start()
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
    }

    var rawGET: Arm {
        Arm(name: "AsyncHTTPClient") { [http, baseURL] i in
            let response = try await http.execute(HTTPClientRequest(url: "\(baseURL)/items/\(i)?limit=10"), timeout: .seconds(30))
            let item = try JSON.decoder.decode(Item.self, from: try await Self.body(of: response))
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
    }

    /// POST through `manager`, or through the manager on AsyncHTTPClient.
    func managerPOST(_ manager: APIManager? = nil) -> Arm {
        Arm(name: "manager") { [manager = manager ?? self.manager] i in
            let item = try await CreateItemAPI(name: "Widget \(i)", price: 9.5, tags: ["a", "b"]).using(manager).start()
            guard item.name == "Widget \(i)" else { throw WrongAnswer(description: "POST \(i) answered \(item)") }
        }
    }

    var rawPOST: Arm {
        Arm(name: "AsyncHTTPClient") { [http, baseURL] i in
            var request = HTTPClientRequest(url: "\(baseURL)/items")
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSON.encoder.encode(NewItem(name: "Widget \(i)", price: 9.5, tags: ["a", "b"]))))
            let response = try await http.execute(request, timeout: .seconds(30))
            let item = try JSON.decoder.decode(Item.self, from: try await Self.body(of: response))
            guard item.name == "Widget \(i)" else { throw WrongAnswer(description: "POST \(i) answered \(item)") }
        }
    }

    var urlSessionGET: Arm {
        Arm(name: "URLSession") { [urlSession, baseURL] i in
            var request = URLRequest(url: URL(string: "\(baseURL)/items/\(i)?limit=10")!)
            request.timeoutInterval = 30
            let item = try JSON.decoder.decode(Item.self, from: try await Self.body(of: urlSession.data(for: request)))
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
    }

    var urlSessionPOST: Arm {
        Arm(name: "URLSession") { [urlSession, baseURL] i in
            var request = URLRequest(url: URL(string: "\(baseURL)/items")!)
            request.httpMethod = "POST"
            request.timeoutInterval = 30
            request.setValue("application/json", forHTTPHeaderField: "content-type")
            request.httpBody = try JSON.encoder.encode(NewItem(name: "Widget \(i)", price: 9.5, tags: ["a", "b"]))
            let item = try JSON.decoder.decode(Item.self, from: try await Self.body(of: urlSession.data(for: request)))
            guard item.name == "Widget \(i)" else { throw WrongAnswer(description: "POST \(i) answered \(item)") }
        }
    }

    private static func body(of reply: (Data, URLResponse)) throws -> Data {
        guard (reply.1 as? HTTPURLResponse)?.statusCode == 200 else { throw WrongAnswer(description: "status of \(reply.1)") }
        return reply.0
    }

    private static func body(of response: HTTPClientResponse) async throws -> ByteBuffer {
        guard response.status == .ok else { throw WrongAnswer(description: "status \(response.status)") }
        return try await response.body.collect(upTo: 1 << 20)
    }

    // MARK: gRPC

    var managerUnary: Arm {
        Arm(name: "manager") { [manager] i in
            let reply = try await SayHelloAPI(Self.hello(i)).using(manager).start()
            guard reply.message == "Hello, bench \(i)" else { throw WrongAnswer(description: "SayHello \(i) answered \(reply)") }
        }
    }

    var rawUnary: Arm {
        Arm(name: "grpc-swift") { [grpc] i in
            var options = CallOptions.defaults
            options.timeout = .seconds(30)
            let reply = try await grpc.unary(
                request: ClientRequest(message: Self.hello(i)),
                descriptor: Greeter.sayHello,
                serializer: ProtobufSerializer<Helloworld_HelloRequest>(),
                deserializer: ProtobufDeserializer<Helloworld_HelloReply>(),
                options: options
            ) { try $0.message }
            guard reply.message == "Hello, bench \(i)" else { throw WrongAnswer(description: "SayHello \(i) answered \(reply)") }
        }
    }

    private static func hello(_ i: Int) -> Helloworld_HelloRequest {
        var request = Helloworld_HelloRequest()
        request.name = "bench \(i)"
        return request
    }

    // MARK: JSON-RPC

    /// One `add` call alone through the manager.
    var singleAdd: Arm {
        Arm(name: "single") { [manager] i in
            let sum = try await AddAPI(a: i, b: 1).using(manager).start()
            guard sum == i + 1 else { throw WrongAnswer(description: "add(\(i), 1) answered \(sum)") }
        }
    }

    /// 100 `add` calls in one batch (one HTTP request).
    func batchOfAdds(_ batchNumber: Int) async throws {
        let batch = JSONRPCBatch(manager: manager)
        let first = batchNumber * 100
        let entries = (first..<first + 100).map { batch.add(AddAPI(a: $0, b: 1)) }
        try await batch.send()
        for (offset, entry) in entries.enumerated() {
            let sum = try entry.get()
            guard sum == first + offset + 1 else { throw WrongAnswer(description: "batched add(\(first + offset), 1) answered \(sum)") }
        }
    }
}

/// The POST body, as the raw client encodes it.
struct NewItem: Encodable {
    let name: String
    let price: Double
    let tags: [String]
}

/// One coder each, shared, as the manager shares its own.
enum JSON {
    static let decoder = JSONDecoder()
    static let encoder = JSONEncoder()
}
