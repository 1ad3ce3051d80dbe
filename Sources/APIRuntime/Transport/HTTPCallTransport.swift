import Foundation
import HTTPTypes

/// An `HTTPTransport` as the manager uses it: the call's request goes out with its body (whole,
/// or streamed when it is a file or a sequence), and the reply's body is read whole (up to
/// `maxResponseBytes`), so that interceptors and protocols see whole requests and replies;
/// unless the request streams its reply's body (a download, an event stream) and the reply is a
/// success, which is then handed on unread.
struct HTTPCallTransport: CallTransport {
    let transport: any HTTPTransport
    let maxResponseBytes: Int

    init(_ transport: any HTTPTransport, maxResponseBytes: Int) {
        self.transport = transport
        self.maxResponseBytes = maxResponseBytes
    }

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        let head = HTTPRequest(method: request.method, url: request.url, headerFields: request.headerFields)
        do {
            var (response, body) = try await transport.send(head, body: request.streamedBody ?? request.body.map(HTTPBody.init))
            if let reporter = ProgressReporter.current, response.status.kind == .successful {
                body = body.reportingDownload(to: reporter)
            }
            if request.streamsResponseBody, response.status.kind == .successful {
                var reply = APIResponse(status: response.status, headerFields: response.headerFields)
                reply.streamedBody = body
                return reply
            }
            let bytes = try await body.collect(upTo: maxResponseBytes)
            return APIResponse(status: response.status, headerFields: response.headerFields, body: bytes)
        } catch let error as HTTPBody.TooLarge {
            throw APIError(api: request.api, reason: .invalidResponse(message: error.description), underlying: error)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(api: request.api, reason: Task.isCancelled ? .cancelled : .transport(message: "\(error)"), underlying: error)
        }
    }

    func shutdown() async {
        await transport.shutdown()
    }
}
