import APIWireFormat
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

extension TransportFactory {
    /// A transport that answers from `recording` instead of the network, for tests of an app
    /// with no server: set it as both the HTTP and the gRPC transport.
    ///
    /// ```swift
    /// let replay = try TransportFactory.replaying(Recording(contentsOf: fixture))
    /// configuration.httpTransport = replay
    /// configuration.grpcTransport = replay
    /// ```
    ///
    /// A request is answered by the first exchange not yet replayed whose API, method, URL and
    /// body are the request's (a redacted value in the recording matches any value; a JSON-RPC
    /// reply gets the request's id); once each such exchange has been replayed, the last one
    /// answers again. A request the recording does not hold fails with
    /// `APIError.Reason.notStubbed`, naming what was sent and the exchanges of that API it holds.
    /// `secrets` must be the names the recording was made with.
    public static func replaying(_ recording: Recording, secrets: SecretNames = .standard) -> TransportFactory {
        let replay = Replay(recording: recording, secrets: secrets)
        return TransportFactory(name: "replay", schemes: ["http", "https", "grpc", "grpcs"]) { _, _, _ in replay }
    }
}

/// The exchanges of a recording, and which of them have been replayed: one for every session
/// of a manager.
private final class Replay: CallTransport {
    let recording: Recording
    let secrets: SecretNames
    /// Guards how many times each exchange has been replayed.
    private let replayed: NIOLockedValueBox<[Int]>

    init(recording: Recording, secrets: SecretNames) {
        self.recording = recording
        self.secrets = secrets
        self.replayed = NIOLockedValueBox(Array(repeating: 0, count: recording.exchanges.count))
    }

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        let candidates = recording.exchanges.indices.filter { matches(recording.exchanges[$0], request) }
        let chosen: Int? = replayed.withLockedValue { counts in
            guard let index = candidates.first(where: { counts[$0] == 0 }) ?? candidates.last else { return nil }
            counts[index] += 1
            return index
        }
        guard let chosen else {
            let sameAPI = recording.exchanges.filter { $0.api == request.api }.map { "\($0.request.method) \($0.request.url)" }
            let held = sameAPI.isEmpty ? "the recording holds no call of \(request.api)" : "it holds \(sameAPI.joined(separator: ", "))"
            throw APIError(api: request.api, reason: .notStubbed(request: "\(request.method) \(request.url.map { secrets.redacted($0) } ?? "") in the recording: \(held)"))
        }
        let exchange = recording.exchanges[chosen]
        guard exchange.response.streamed != true else {
            throw APIError(api: request.api, reason: .notStubbed(request: "\(exchange.request.method) \(exchange.request.url) in the recording: its reply streamed, and a recording keeps a streamed reply's head only"))
        }
        guard exchange.response.messageLeftOut != true else {
            throw APIError(api: request.api, reason: .notStubbed(request: "\(exchange.request.method) \(exchange.request.url) in the recording: its gRPC message was not recorded; record with ExchangeRecorder(file:recordsGRPCMessages: true) to replay it"))
        }
        var response = exchange.response.apiResponse
        response.body = Self.answering(response.body, recorded: exchange.request.body, sent: request.body)
        return response
    }

    func shutdown() async {}

    // MARK: Matching

    private func matches(_ exchange: Recording.Exchange, _ request: APIRequest) -> Bool {
        guard exchange.api == request.api, exchange.request.method == request.method.rawValue,
              let url = request.url, Self.url(url, matches: exchange.request.url) else { return false }
        let recorded = exchange.request.body
        if recorded == RecordedRequest.messageLeftOut, request.grpcMethod != nil { return true }
        let sent = RecordedRequest.body(of: request, secrets: secrets, grpcMessages: true)
        return RecordedRequest.comparable(recorded, secrets: secrets) == RecordedRequest.comparable(sent, secrets: secrets)
    }

    /// Whether `url` is the recorded one, a redacted path segment or query value matching any.
    private static func url(_ url: URL, matches recorded: String) -> Bool {
        guard let sent = URLComponents(url: url, resolvingAgainstBaseURL: false), let kept = URLComponents(string: recorded),
              sent.scheme == kept.scheme, sent.host == kept.host, sent.port == kept.port else { return false }
        let sentPath = sent.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        let keptPath = kept.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        guard sentPath.count == keptPath.count else { return false }
        for (segment, recorded) in zip(sentPath, keptPath) where segment != recorded && !recorded.contains("%3Credacted%3E") {
            return false
        }
        let sentItems = sent.percentEncodedQueryItems ?? [], keptItems = kept.percentEncodedQueryItems ?? []
        guard sentItems.count == keptItems.count else { return false }
        return zip(sentItems, keptItems).allSatisfy { $0.name == $1.name && ($0.value == $1.value || $1.value == "%3Credacted%3E") }
    }

    // MARK: JSON-RPC ids

    /// `reply` with the JSON-RPC ids of the recorded request replaced by those of the one sent:
    /// a request object's, or each batch member's in turn (a recording made before the recorder
    /// kept ids has none: a lone reply then takes the request's id).
    private static func answering(_ reply: Data, recorded: String?, sent: Data?) -> Data {
        guard let sent else { return reply }
        let sentIDs = ids(in: sent)
        guard !sentIDs.isEmpty else { return reply }
        let recordedIDs = recorded.map { ids(in: Data($0.utf8)) } ?? []
        var renamed: [Data: Data] = [:]
        for (old, new) in zip(recordedIDs, sentIDs) { renamed[old] = new }
        let slices = JSONSlices(reply)
        if let elements = (try? slices.elements()) ?? nil {
            var answered = Data("[".utf8)
            for (index, element) in elements.enumerated() {
                if index > 0 { answered.append(Data(",".utf8)) }
                answered.append(replacingID(in: slices[element]) { renamed[$0] })
            }
            answered.append(Data("]".utf8))
            return answered
        }
        return replacingID(in: reply) { renamed[$0] ?? (recordedIDs.isEmpty ? sentIDs.first : nil) }
    }

    /// The ids of a JSON-RPC request object, or of a batch's members, in order, as written.
    private static func ids(in body: Data) -> [Data] {
        let slices = JSONSlices(body)
        func id(of object: JSONSlices) -> Data? {
            guard let members = (try? object.members()) ?? nil, members.contains(where: { $0.key == "jsonrpc" }),
                  let id = members.last(where: { $0.key == "id" }) else { return nil }
            return object[id.value]
        }
        if let elements = (try? slices.elements()) ?? nil {
            return elements.compactMap { id(of: JSONSlices(slices[$0])) }
        }
        return id(of: slices).map { [$0] } ?? []
    }

    /// `body`, a JSON-RPC response object, with its `id` replaced as `replacement` says (left as
    /// it is where it says nil).
    private static func replacingID(in body: Data, _ replacement: (Data) -> Data?) -> Data {
        let slices = JSONSlices(body)
        guard let members = (try? slices.members()) ?? nil, let recorded = members.last(where: { $0.key == "id" }),
              let id = replacement(slices[recorded.value]) else { return body }
        var replaced = Data(slices[0..<recorded.value.lowerBound])
        replaced.append(id)
        replaced.append(slices[recorded.value.upperBound..<slices.bytes.count])
        return replaced
    }
}
