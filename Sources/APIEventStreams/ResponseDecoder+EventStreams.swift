import APIRuntime
import Foundation

extension ResponseDecoder {
    /// Server-Sent Events whose `data` is JSON of type `Payload`.
    public static func events<Payload: Decodable & Sendable>(of payload: Payload.Type = Payload.self) -> Self where Response == ServerEventStream<Payload> {
        .streaming { response, api in
            ServerEventStream(body: ReplyBody(response.streamedBody ?? HTTPBody(response.body), api: api, maxLineBytes: response.limits.maxLineBytes)) { text in
                try JSONCoding.decoder.decode(Payload.self, from: Data(text.utf8))
            }
        }
    }

    /// JSON Lines, each line a value of type `Element`.
    public static func jsonLines<Element: Decodable & Sendable>(of element: Element.Type = Element.self) -> Self where Response == JSONLinesStream<Element> {
        .streaming { response, api in
            JSONLinesStream(body: ReplyBody(response.streamedBody ?? HTTPBody(response.body), api: api, maxLineBytes: response.limits.maxLineBytes))
        }
    }
}

extension ResponseDecoder where Response == ServerEventStream<String> {
    /// Server-Sent Events whose `data` is text, as it is.
    public static var textEvents: Self {
        .streaming { response, api in
            ServerEventStream(body: ReplyBody(response.streamedBody ?? HTTPBody(response.body), api: api, maxLineBytes: response.limits.maxLineBytes)) { $0 }
        }
    }
}

extension ServerEventStream: StreamingReply {
    package var replyStream: any ReplyStream { body }
}

extension JSONLinesStream: StreamingReply {
    package var replyStream: any ReplyStream { body }
}
