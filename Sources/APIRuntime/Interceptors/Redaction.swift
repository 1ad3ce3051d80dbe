import APIWireFormat
import Foundation
import HTTPTypes

/// Redaction by secret names, shared by the logging interceptor and the exchange recorder: the
/// values of secret headers, query items, path parameters and JSON fields become `<redacted>`,
/// and so does any value shaped as a token (`BodyRedaction.swift`).
extension SecretNames {
    /// `fields` with the values of credential and secret headers, and token-shaped values,
    /// redacted; in other values, a secret-named `name=value` (the query of a URL in `Location`,
    /// `Link` or `Referer`) has its value redacted.
    func redacted(_ fields: HTTPFields) -> HTTPFields {
        var redacted = HTTPFields()
        for field in fields {
            if containsHeader(field.name.canonicalName) || Self.containsToken(field.value) {
                redacted.append(HTTPField(name: field.name, value: "<redacted>"))
            } else {
                redacted.append(HTTPField(name: field.name, value: field.value.contains("=") ? self.redacted(text: field.value) : field.value))
            }
        }
        return redacted
    }

    /// The URL with the values of secret query items (`?api_key=<redacted>`) and of secret path
    /// parameters (`/reset/<redacted>` for `/reset/{token}`) redacted.
    func redacted(_ url: URL, template: PathTemplate? = nil) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unreadable URL>" }
        if let template {
            components.percentEncodedPath = redacted(path: components.percentEncodedPath, template: template)
        }
        // A token in a segment, whatever the placeholder it fills is named.
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { Self.containsToken(String($0).removingPercentEncoding ?? String($0)) }) {
            components.percentEncodedPath = segments.map { Self.containsToken(String($0).removingPercentEncoding ?? String($0)) ? "%3Credacted%3E" : String($0) }
                .joined(separator: "/")
        }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                let secret = contains(item.name.removingPercentEncoding ?? item.name) || Self.containsToken(item.value?.removingPercentEncoding ?? "")
                return secret ? URLQueryItem(name: item.name, value: "%3Credacted%3E") : item
            }
        }
        return components.string ?? "<unreadable URL>"
    }

    /// `path` with the values of the template's secret placeholders redacted. The template is the
    /// end of the path (a base URL's path comes before it), and `PathTemplate.match` finds each
    /// value there. A path the template does not match is redacted whole, should it hold a secret.
    func redacted(path: String, template: PathTemplate) -> String {
        guard template.placeholders.contains(where: { contains($0.name) }) else { return path }
        guard let match = template.match(path[...]) else { return "/<redacted>" }
        var redacted = ""
        var position = path.startIndex
        for (name, range) in match.values where contains(name) {
            redacted += path[position..<range.lowerBound]
            redacted += "%3Credacted%3E"
            position = range.upperBound
        }
        return redacted + path[position...]
    }

    /// A form body (`grant_type=password&password=…`, or a token endpoint's reply) with the values
    /// of secret fields, and token-shaped values, redacted.
    func redacted(form: String) -> String {
        form.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            let name = parts.first.map(String.init) ?? ""
            let value = parts.count > 1 ? String(parts[1]) : ""
            let secret = contains(name.removingPercentEncoding ?? name) || Self.containsToken(value.removingPercentEncoding ?? value)
            return secret ? name + "=%3Credacted%3E" : String(pair)
        }.joined(separator: "&")
    }
}
