import APIEventStreams
import APIGRPC
import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// Typed stubs (`APIManager.stub`) for every protocol and reply shape of the example workspace:
/// each answer goes through the interceptors, the retry policy, the deadline and the decoding.
@Suite("Typed stubs")
struct TypedStubTests {
    static let createdAt = Date(timeIntervalSince1970: 1_700_000_000)

    static func user(id: Int, name: String = "Ada") -> User {
        User(id: id, name: name, role: .member, tags: [], createdAt: createdAt)
    }

    /// A stubbing manager whose interceptor records what it sees and stamps `X-Log: yes`.
    private func withStubbingManager(_ body: (APIManager, NIOLockedValueBox<[String]>) async throws -> Void) async throws {
        let seen = NIOLockedValueBox<[String]>([])
        var configuration = APIManager.Configuration()
        configuration.interceptors = [RecordingInterceptor(name: "Log", seen: seen)]
        configuration.grpcTransport = .grpc
        try await withManager(configuration) { manager in try await body(manager, seen) }
    }

    @Test("A REST stub answers from the call's typed parameters, through the interceptors, and the calls are recorded")
    func rest() async throws {
        try await withStubbingManager { manager, seen in
            manager.stub(GetUserAPI.self) { api in Self.user(id: api.id) }
            let user = try await GetUserAPI(id: 7).using(manager).start()
            #expect(user == Self.user(id: 7))
            #expect(seen.withLockedValue { $0 } == ["Log>rest:GetUser#1", "Log<200"])

            let recorded = manager.recordedCalls
            #expect(recorded.map(\.name) == ["GetUser"])
            #expect(recorded.first?.request.url?.absoluteString == "https://api.example.com/v1/users/7")
            // What the network would have seen: the interceptor's header too.
            #expect(recorded.first?.request.headerFields[HTTPField.Name("X-Log")!] == "yes")
            #expect(manager.recordedCalls(of: GetUserAPI.self).map(\.id) == [7])
            #expect(manager.sessionCount == 0)
        }
    }

    @Test("Every shape of REST reply: none, bytes, text, a download, a multipart upload, events and JSON lines")
    func restShapes() async throws {
        try await withStubbingManager { manager, _ in
            manager.stub(DeleteUserAPI.self) { _ in }
            manager.stub(DocumentBytesAPI.self) { api in Data("bytes of \(api.name)".utf8) }
            manager.stub(DownloadTextAPI.self) { api in "text of \(api.name)" }
            manager.stub(DownloadDocumentAPI.self) { api in Data("file \(api.name)".utf8) }
            manager.stub(UploadAvatarAPI.self) { api in Self.user(id: api.id, name: api.photo.fileName) }
            manager.stub(UserActivityAPI.self) { api in
                [ServerEvent(data: ActivityEvent(userID: 1, action: api.role?.rawValue ?? "any", at: Self.createdAt), id: "1"),
                 ServerEvent(data: ActivityEvent(userID: 2, action: "left\nearly", at: Self.createdAt), event: "leave")]
            }
            manager.stub(ExportUsersAPI.self) { _ in [Self.user(id: 1), Self.user(id: 2)] }

            _ = try await DeleteUserAPI(id: 3).using(manager).start()
            #expect(try await DocumentBytesAPI(name: "a").using(manager).start() == Data("bytes of a".utf8))
            #expect(try await DownloadTextAPI(name: "b").using(manager).start() == "text of b")

            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubs-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = try await DownloadDocumentAPI(name: "c", destination: folder.appendingPathComponent("c.txt")).using(manager).start()
            #expect(try Data(contentsOf: file) == Data("file c".utf8))

            let photo = UploadFile(Data([1, 2, 3]), fileName: "me.png", contentType: "image/png")
            #expect(try await UploadAvatarAPI(id: 4, photo: photo).using(manager).start().name == "me.png")

            var events: [ServerEvent<ActivityEvent>] = []
            for try await event in try await UserActivityAPI(role: .admin).using(manager).start() { events.append(event) }
            #expect(events.map(\.data.action) == ["admin", "left\nearly"])
            #expect(events.map(\.event) == [nil, "leave"])
            #expect(events.map(\.id) == ["1", "1"])

            var users: [User] = []
            for try await user in try await ExportUsersAPI().using(manager).start() { users.append(user) }
            #expect(users.map(\.id) == [1, 2])

            #expect(manager.recordedCalls.map(\.name) == ["DeleteUser", "DocumentBytes", "DownloadText", "DownloadDocument", "UploadAvatar", "UserActivity", "ExportUsers"])
        }
    }

    @Test("A stub's error status reaches the API's declared error type; a failed connection is retried as the manifest says")
    func failures() async throws {
        try await withStubbingManager { manager, seen in
            let invalid = ValidationErrors(errors: [FieldError(field: "name", message: "taken")])
            manager.stub(UpdateUserAPI.self) { _ in throw StubError.status(422, json: invalid) }
            let error = await expectAPIError { try await UpdateUserAPI(id: 1, name: "x", etag: "v1").using(manager).start() }
            #expect(error?.api == "UpdateUser")
            let body = try JSONCoding.makeEncoder().encode(invalid)
            #expect(error?.reason == .httpStatus(code: 422, body: body))
            #expect(error?.serverError as? ValidationErrors == invalid)

            // GetUser retries up to 3 attempts: two failed connections, then the answer.
            let attempts = NIOLockedValueBox(0)
            manager.stub(GetUserAPI.self) { api in
                let attempt = attempts.withLockedValue { $0 += 1; return $0 }
                guard attempt == 3 else { throw StubError.connectionFailed() }
                return Self.user(id: api.id)
            }
            seen.withLockedValue { $0 = [] }
            #expect(try await GetUserAPI(id: 5).using(manager).start().id == 5)
            #expect(manager.recordedCalls(of: GetUserAPI.self).count == 3)
            #expect(seen.withLockedValue { $0 }.filter { $0.hasPrefix("Log>") } == ["Log>rest:GetUser#1", "Log>rest:GetUser#2", "Log>rest:GetUser#3"])

            // Any other error the stub throws is a failed connection too; an APIError is the call's.
            manager.stub(GetProfileAPI.self) { _ in throw URLError(.notConnectedToInternet) }
            #expect(await expectAPIError { try await GetProfileAPI().using(manager).start() }?.reason.isTransport == true)
            manager.stub(GetProfileAPI.self) { _ in throw APIError(api: "GetProfile", reason: .unauthorized(message: "signed out")) }
            #expect(await expectAPIError { try await GetProfileAPI().using(manager).start() }?.reason == .unauthorized(message: "signed out"))

            // A failure of another protocol is the test's mistake, said as such.
            manager.stub(CountUsersAPI.self) { _ in throw StubError.grpcStatus(.notFound) }
            let mistaken = await expectAPIError { try await CountUsersAPI().using(manager).start() }
            #expect(mistaken?.reason == .invalidRequest(message: "the stub answers a gRPC status, which a rest API cannot get"))
        }
    }

    @Test("A call no stub answers fails naming the API and what it sent, and reaches no network")
    func unmatched() async throws {
        try await withStubbingManager { manager, _ in
            manager.stub(GetUserAPI.self) { api in Self.user(id: api.id) }
            let error = await expectAPIError { try await ListUsersAPI(limit: 2).using(manager).start() }
            #expect(error?.api == "ListUsers")
            #expect(error?.reason == .notStubbed(request: "GET https://api.example.com/v1/users"))
            #expect(error?.description == "ListUsers: no stub answers GET https://api.example.com/v1/users")
            let rpc = await expectAPIError { try await SumAPI(a: 1, b: 2, c: 3).using(manager).start() }
            #expect(rpc?.reason == .notStubbed(request: "POST https://api.example.com/v1/jsonrpc (sum)"))
            #expect(manager.recordedCalls.map(\.name) == ["ListUsers", "Sum"])
            #expect(manager.sessionCount == 0)

            // Without stubs, the manager sends to the network again: here, a port nobody listens on.
            manager.removeAllStubs()
            #expect(manager.recordedCalls.isEmpty)
            let sent = await expectAPIError { try await GetUserAPI(id: 1).using(manager).start(options: APICallOptions(baseURL: "http://127.0.0.1:1")) }
            #expect(sent?.reason.isTransport == true)
        }
    }

    @Test("A stub's delay runs on the manager's clock, within the call's deadline; the caller can walk away")
    func delays() async throws {
        try await withStubbingManager { manager, _ in
            manager.stub(GetUserAPI.self, delay: .seconds(30)) { api in Self.user(id: api.id) }
            let error = await expectAPIError { try await GetUserAPI(id: 1).using(manager).start(options: APICallOptions(timeout: .milliseconds(200))) }
            #expect(error?.reason == .timeout(.milliseconds(200)))

            let call = Task { try await GetUserAPI(id: 2).using(manager).start() }
            try await Task.sleep(for: .milliseconds(100))
            call.cancel()
            let cancelled = await expectAPIError { try await call.value }
            #expect(cancelled?.reason == .cancelled)

            manager.stub(GetUserAPI.self, delay: .milliseconds(50)) { api in Self.user(id: api.id) }
            #expect(try await GetUserAPI(id: 3).using(manager).start().id == 3)
        }
    }

    @Test("JSON-RPC stubs: a result in the envelope with the call's id, an error object, a notification, a raw reply")
    func jsonRPC() async throws {
        try await withStubbingManager { manager, seen in
            manager.stub(SubtractAPI.self) { api in api.minuend - api.subtrahend }
            manager.stub(DivideAPI.self) { api in
                guard api.divisor != 0 else { throw StubError.rpcError(code: -32000, message: "division by zero", data: .object(["dividend": .number(api.dividend)])) }
                return api.dividend / api.divisor
            }
            manager.stub(NotifyHelloAPI.self) { _ in }
            manager.stub(UpdateAPI.self) { _ in }
            manager.stub(SumAPI.self) { _ in StubResponse(json: #"{"jsonrpc":"2.0","result":6,"id":"not the call's"}"#) }

            #expect(try await SubtractAPI(minuend: 42, subtrahend: 23).using(manager).start() == 19)
            #expect(try await DivideAPI(dividend: 1, divisor: 4).using(manager).start() == 0.25)
            let error = await expectAPIError { try await DivideAPI(dividend: 1, divisor: 0).using(manager).start() }
            #expect(error?.reason == .rpcError(code: -32000, message: "division by zero", data: Data(#"{"dividend":1}"#.utf8)))
            #expect(error?.serverError as? DivisionError == DivisionError(dividend: 1))
            try await NotifyHelloAPI(value: 1).using(manager).start()
            try await UpdateAPI(a: 1, b: 2, c: 3, d: 4, e: 5).using(manager).start()
            // A raw reply is the server's bytes as they are: here one whose id is wrong.
            let mismatch = await expectAPIError { try await SumAPI(a: 1, b: 2, c: 3).using(manager).start() }
            #expect(mismatch?.reason.isInvalidResponse == true)

            #expect(manager.recordedCalls(of: SubtractAPI.self).map(\.minuend) == [42])
            #expect(seen.withLockedValue { $0 }.filter { $0.hasPrefix("Log>") }.count == 6)
            #expect(seen.withLockedValue { $0 }.allSatisfy { !$0.hasPrefix("Log>") || $0.hasPrefix("Log>jsonrpc:") })
        }
    }

    @Test("A JSON-RPC batch: each member answered by its stub in one array reply; a member without a stub fails the batch, naming it")
    func jsonRPCBatch() async throws {
        try await withStubbingManager { manager, seen in
            manager.stub(SumAPI.self) { api in api.a + api.b + api.c }
            manager.stub(SubtractAPI.self) { api in api.minuend - api.subtrahend }
            manager.stub(NotifyHelloAPI.self) { _ in }
            manager.stub(FoobarAPI.self) { _ in throw StubError.rpcError(code: -32601, message: "Method not found") }

            let batch = JSONRPCBatch(manager: manager)
            let sum = batch.add(SumAPI(a: 1, b: 2, c: 4))
            let hello = batch.add(NotifyHelloAPI(value: 7))
            let difference = batch.add(SubtractAPI(minuend: 42, subtrahend: 23))
            let missing = batch.add(FoobarAPI())
            try await batch.send()
            #expect(try sum.get() == 7)
            #expect(try hello.get() == NoContent())
            #expect(try difference.get() == 19)
            #expect(missing.result.failureValue?.reason == .rpcError(code: -32601, message: "Method not found", data: nil))
            #expect(manager.recordedCalls.map(\.name) == ["Sum", "NotifyHello", "Subtract", "Foobar"])
            #expect(manager.recordedCalls(of: SubtractAPI.self).map(\.minuend) == [42])
            #expect(seen.withLockedValue { $0 } == ["Log>jsonrpc:JSONRPCBatch#1", "Log<200"])

            let unstubbed = JSONRPCBatch(manager: manager)
            let first = unstubbed.add(SumAPI(a: 1, b: 1, c: 1))
            let second = unstubbed.add(GetDataAPI())
            let error = await expectAPIError { try await unstubbed.send() }
            #expect(error?.reason == .notStubbed(request: "POST https://api.example.com/v1/jsonrpc (get_data) in a batch"))
            #expect(first.result.failureValue?.reason == error?.reason && second.result.failureValue?.reason == error?.reason)
        }
    }

    @Test("gRPC stubs: unary, server streaming, client streaming, bidirectional, and a status")
    func grpc() async throws {
        try await withStubbingManager { manager, seen in
            manager.stub(SayHelloAPI.self) { api in
                guard !api.request.name.isEmpty else { throw StubError.grpcStatus(.invalidArgument, message: "no name") }
                return Helloworld_HelloReply.with { $0.message = "Hello \(api.request.name)" }
            }
            manager.stub(ListFeaturesAPI.self) { api in
                (1...3).map { index in Routeguide_Feature.with { $0.name = "feature \(index) in \(api.request.hi.latitude)" } }
            }
            manager.stub(RecordRouteAPI.self) { api in
                let points = try await api.requests.messages()
                return Routeguide_RouteSummary.with { $0.pointCount = Int32(points.count) }
            }
            manager.stub(RouteChatAPI.self) { api in
                try await api.requests.messages().map { note in Routeguide_RouteNote.with { $0.message = "echo " + note.message } }
            }

            #expect(try await SayHelloAPI { $0.name = "Ada" }.using(manager).start().message == "Hello Ada")
            let refused = await expectAPIError { try await SayHelloAPI().using(manager).start() }
            #expect(refused?.reason == .grpcStatus(code: .invalidArgument, message: "no name"))

            var names: [String] = []
            for try await feature in try await ListFeaturesAPI(.with { $0.hi.latitude = 9 }).using(manager).start() { names.append(feature.name) }
            #expect(names == ["feature 1 in 9", "feature 2 in 9", "feature 3 in 9"])

            let points = (1...4).map { index in Geo_Point.with { $0.latitude = Int32(index) } }
            #expect(try await RecordRouteAPI(points).using(manager).start().pointCount == 4)

            let notes = ["a", "b"].map { text in Routeguide_RouteNote.with { $0.message = text } }
            var echoes: [String] = []
            for try await note in try await RouteChatAPI(notes).using(manager).start() { echoes.append(note.message) }
            #expect(echoes == ["echo a", "echo b"])

            #expect(manager.recordedCalls.map(\.name) == ["SayHello", "SayHello", "ListFeatures", "RecordRoute", "RouteChat"])
            #expect(seen.withLockedValue { $0 }.filter { $0.hasPrefix("Log>") }.allSatisfy { $0.hasPrefix("Log>grpc:") })
        }
    }

    @Test("A reply stream left early stops the stub's stream, and the manager holds nothing after")
    func streamLeftEarly() async throws {
        try await withStubbingManager { manager, _ in
            manager.stub(ListFeaturesAPI.self) { _ in
                (1...1000).map { index in Routeguide_Feature.with { $0.name = "\(index)" } }
            }
            let stream = try await ListFeaturesAPI().using(manager).start()
            for try await feature in stream where feature.name == "2" { break }
            stream.cancel()
            try await waitUntil { manager.cancelAll() == 0 }
        }
    }
}

extension APIError.Reason {
    var isTransport: Bool {
        if case .transport = self { return true }
        return false
    }

    var isInvalidResponse: Bool {
        if case .invalidResponse = self { return true }
        return false
    }
}
