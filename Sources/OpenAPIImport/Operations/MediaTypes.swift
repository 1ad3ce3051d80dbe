import Foundation
import OpenAPIKit

/// How a media type travels in a manifest, and which of an operation's media types is imported.
enum MediaTypes {
    enum Kind {
        case json, form, multipart, eventStream, jsonLines, bytes
    }

    static func kind(of mediaType: String) -> Kind {
        let type = mediaType.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
        switch type {
        case "application/json", "*/*": return .json
        case "application/x-www-form-urlencoded": return .form
        case "multipart/form-data": return .multipart
        case "text/event-stream": return .eventStream
        case "application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/json-seq": return .jsonLines
        default: return type.hasSuffix("+json") ? .json : .bytes
        }
    }

    /// The media type imported when there are several: JSON first, then forms, then the rest in
    /// the document's order.
    static func preferred(in content: OpenAPIKit.OpenAPI.Content.Map, components: OpenAPIKit.OpenAPI.Components) -> (String, OpenAPIKit.OpenAPI.Content)? {
        let resolved = content.compactMap { type, either in components[either].map { (type.rawValue, $0) } }
        let order: [Kind] = [.json, .form, .multipart, .eventStream, .jsonLines, .bytes]
        return resolved.min { order.firstIndex(of: kind(of: $0.0))! < order.firstIndex(of: kind(of: $1.0))! }
    }
}
