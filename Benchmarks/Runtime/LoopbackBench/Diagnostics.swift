import APIRuntime
import AsyncHTTPClient
import BenchClient
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOPosix

/// `LOOPBACK_DIAG=1`: comparisons that split the manager's cost on the wire into its parts
/// (BENCHMARKS.md §4 reports what they showed).
enum Diagnostics {
    static func run() async throws {
        let servers = try ServerProcess.start()
        let clients = try Clients(httpPort: servers.httpPort, grpcPort: servers.grpcPort)
        let raw = clients.rawGET

        // Our AsyncHTTPClient transport against the leanest one, both under the manager.
        let lean = leanManager(httpPort: servers.httpPort, http: clients.http)
        let leanGET = Arm(name: "lean") { i in
            let item = try await GetItemAPI(id: i, limit: 10).using(lean).start()
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
        // AsyncHTTPClient's older API (an `HTTPClient.Task`, which a call's cancellation could
        // cancel from outside its task; tried for the manager's transport, measured slower on the
        // wire) against its async `execute`.
        let rawTask = Arm(name: "raw HTTPClient.Task") { [http = clients.http, port = servers.httpPort] i in
            let request = try HTTPClient.Request(url: "http://127.0.0.1:\(port)/items/\(i)?limit=10")
            let response = try await http.execute(request: request, delegate: ResponseAccumulator(request: request), deadline: .now() + .seconds(30)).futureResult.get()
            let item = try JSON.decoder.decode(Item.self, from: Data(buffer: response.body ?? ByteBuffer()))
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
        // What a task of its own per call costs, without the manager.
        let rawInTask = Arm(name: "raw in a task") { i in
            let task = Task.immediate { try await raw.call(i) }
            try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        }
        // No network: the manager on a transport that answers after a hop through an event loop
        // (as a reply from AsyncHTTPClient arrives), and at once, against the same without it.
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let hopping = offlineManager { request throws(APIError) in try await hop(on: loop, api: request.api) }
        let immediate = offlineManager { _ in }
        // The same hop 200 µs later: the threads go idle between calls, as they do on the wire.
        let waiting = offlineManager { request throws(APIError) in try await hop(on: loop, api: request.api, after: .microseconds(200)) }
        let bareWait = Arm(name: "wait and decode") { i in
            try await hop(on: loop, api: "GetItem", after: .microseconds(200))
            let item = try JSON.decoder.decode(Item.self, from: itemJSON(i))
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
        func managerArm(_ manager: APIManager) -> Arm {
            Arm(name: "manager") { i in
                let item = try await GetItemAPI(id: i, limit: 10).using(manager).start()
                guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
            }
        }
        let bareHop = Arm(name: "hop and decode") { i in
            try await hop(on: loop, api: "GetItem")
            let item = try JSON.decoder.decode(Item.self, from: itemJSON(i))
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
        let bareDecode = Arm(name: "decode") { i in
            let item = try JSON.decoder.decode(Item.self, from: itemJSON(i))
            guard item.id == i else { throw WrongAnswer(description: "GET \(i) answered \(item)") }
        }
        for width in [1, 32] {
            let calls = width == 1 ? 3_000 : 10_000
            for (name, ours, peer) in [
                ("manager vs manager on a minimal transport", clients.managerGET, leanGET),
                ("raw vs raw: the noise floor", raw, raw),
                ("manager on a minimal transport vs raw", leanGET, raw),
                ("raw in a Task.immediate vs raw", rawInTask, raw),
                ("raw HTTPClient.Task vs raw", rawTask, raw),
                ("offline: manager, answer after an event-loop hop vs hop and decode", managerArm(hopping), bareHop),
                ("offline: manager, answer at once vs decode", managerArm(immediate), bareDecode),
                ("offline: manager, answer 200 µs later vs wait and decode", managerArm(waiting), bareWait),
                ("offline: wait and decode in a Task.immediate vs wait and decode", Arm(name: "in a task") { i in
                    let task = Task.immediate { try await bareWait.call(i) }
                    try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
                }, bareWait),
            ] where ProcessInfo.processInfo.environment["LOOPBACK_ONLY"].map(name.contains) ?? true {
                print(try await compare(name, ours: ours, peer: peer, calls: calls, width: width, rounds: 9).row)
            }
        }
        await lean.shutdown()
        await hopping.shutdown()
        await immediate.shutdown()
        await waiting.shutdown()
        try await clients.shutdown()
        servers.stop()
    }

    /// A manager whose every call is answered with the item its URL names, after `wait`.
    static func offlineManager(_ wait: @escaping @Sendable (APIRequest) async throws(APIError) -> Void) -> APIManager {
        manager(on: OfflineTransport(wait: wait))
    }

    static func leanManager(httpPort: Int, http: HTTPClient) -> APIManager {
        manager(on: LeanTransport(http: http), baseURL: "http://127.0.0.1:\(httpPort)")
    }

    /// A manager whose every session is `transport`, the bench workspace's base URL replaced.
    private static func manager(on transport: some APIRuntime.HTTPTransport, baseURL: String? = nil) -> APIManager {
        var configuration = APIManager.Configuration()
        configuration.baseURLOverrides = baseURL.map { ["https://api.example.com/v1": $0] } ?? [:]
        configuration.transportFactory = { _, _ in transport }
        return APIManager(configuration: configuration)
    }
}

/// The least an AsyncHTTPClient transport can do: send the URL, hand back the body.
struct LeanTransport: APIRuntime.HTTPTransport {
    let http: HTTPClient
    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        do {
            let response = try await http.execute(HTTPClientRequest(url: request.url.absoluteString), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            return APIResponse(status: .ok, headerFields: [.contentType: "application/json"], body: Data(buffer: body))
        } catch {
            throw APIError(api: request.api, reason: .transport(message: "\(error)"))
        }
    }
    func shutdown() async {}
    /// Nothing in the benchmark cancels a call: no task per call, as for the manager's own transport.
    var observesCallCancellation: Bool { true }
}

/// Suspends until `loop` has run a task (`delay` from now): the hop a reply from the network takes.
func hop(on loop: any EventLoop, api: String, after delay: TimeAmount = .zero) async throws(APIError) {
    let promise = loop.makePromise(of: Void.self)
    if delay == .zero {
        loop.execute { promise.succeed() }
    } else {
        loop.scheduleTask(in: delay) { promise.succeed() }
    }
    do {
        try await promise.futureResult.get()
    } catch {
        throw APIError(api: api, reason: .transport(message: "\(error)"))
    }
}

func itemJSON(_ id: Int) -> Data {
    Data(#"{"id":\#(id),"name":"Widget","price":9.5,"tags":["a","b"]}"#.utf8)
}

/// Answers `GET /items/{id}` without a network, after `wait`.
struct OfflineTransport: APIRuntime.HTTPTransport {
    let wait: @Sendable (APIRequest) async throws(APIError) -> Void
    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        try await wait(request)
        let id = Int(request.url.lastPathComponent) ?? -1
        return APIResponse(status: .ok, headerFields: [.contentType: "application/json"], body: itemJSON(id))
    }
    func shutdown() async {}
    /// Nothing in the benchmark cancels a call: no task per call, as for the manager's own transport.
    var observesCallCancellation: Bool { true }
}
