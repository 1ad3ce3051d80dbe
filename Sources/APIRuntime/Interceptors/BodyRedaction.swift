import APIWireFormat
import Foundation

/// Redaction of bodies, shared by the logging interceptor and the exchange recorder, so that a
/// secret is hidden wherever it travels: a JSON member with a secret name, a JSON-RPC parameter
/// passed by position (a string, whose name the envelope does not say), a form field, and
/// anything that looks like a token (a JWT) in any text.
extension SecretNames {
    /// `body` as logs and recordings show it: JSON with its secrets redacted and every other byte
    /// as it was (numbers keep every digit, members their order); a form with its secret fields
    /// redacted; other UTF-8 text with the values of secret names and its token-shaped runs
    /// redacted; nil for bytes that are not UTF-8 text.
    func redacted(body: Data, contentType: String?) -> String? {
        if let json = redactedJSON(body) { return String(decoding: json, as: UTF8.self) }
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            return redacted(form: text)
        }
        return redacted(text: text)
    }

    /// `body` with the values of secret JSON members, the strings among a `params` array (a
    /// JSON-RPC call's parameters passed by position, at any depth), token-shaped strings and
    /// strings holding JSON with a secret replaced by `"<redacted>"`, in one pass; nil when it is
    /// not JSON. A number or a Boolean under `code` is a status, and kept; so is a number passed
    /// by position, which no name marks.
    func redactedJSON(_ body: Data) -> Data? {
        let slices = JSONSlices(body)
        // Whether the values judged lie within a `params` array.
        let taken = try? slices.ranges(from: false) { key, kind, text, inParameters -> JSONSlices.WalkAction<Bool> in
            if let key, contains(key) {
                let isStatus = key.lowercased() == "code" && (kind == .number || kind == .boolean)
                return kind == .null || isStatus ? .leave : .take
            }
            switch kind {
            case .object, .array:
                return .descend(inParameters || (key == "params" && kind == .array))
            case .string:
                guard let value = text() else { return .take }
                return inParameters || Self.containsToken(value) || holdsJSONWithSecret(value) ? .take : .leave
            default:
                return .leave
            }
        }
        guard let taken else { return nil }
        guard !taken.isEmpty else { return slices.bytes }
        var redacted = Data()
        var position = 0
        for range in taken {
            redacted.append(slices[position..<range.lowerBound])
            redacted.append(contentsOf: Self.redactedJSONString.utf8)
            position = range.upperBound
        }
        redacted.append(slices[position..<slices.bytes.count])
        return redacted
    }

    /// A redacted JSON value.
    static let redactedJSONString = #""<redacted>""#

    /// Whether `text` is JSON itself (a payload sent as a string) that holds a secret.
    private func holdsJSONWithSecret(_ text: String) -> Bool {
        guard let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[" else { return false }
        let data = Data(text.utf8)
        guard let redacted = redactedJSON(data) else { return false }
        return redacted != data
    }

    /// `text` that is not JSON (a body JSON tooling prefixes or that holds several documents, a
    /// form sent as text) with the values of secret names redacted where they read as
    /// `"name": "value"` or `name=value`, and its token-shaped runs redacted.
    func redacted(text: String) -> String {
        let quoted = text.replacing(Self.quotedMember) { match in
            let (whole, name, value) = match.output
            return contains(String(name)) && !value.isEmpty ? String(whole.dropLast(value.count)) + "<redacted>" : String(whole)
        }
        let assigned = quoted.replacing(Self.assignment) { match in
            let (whole, _, name, value) = match.output
            return contains(String(name)) && !value.isEmpty ? String(whole.dropLast(value.count)) + "<redacted>" : String(whole)
        }
        return Self.redactingTokens(in: assigned)
    }

    /// `"name": "value"`, the value up to its closing quote.
    private static var quotedMember: Regex<(Substring, Substring, Substring)> { #/"([^"\\]{1,128})"\s*:\s*"((?:[^"\\]|\\.)*)/# }
    /// `name=value` at the start of the text or after a separator, the value up to the next one.
    private static var assignment: Regex<(Substring, Substring, Substring, Substring)> { #/(^|[&;?\s])([A-Za-z0-9_.\-\[\]]{1,128})=([^&;\s]*)/# }

    // MARK: Tokens

    /// `text` with every token-shaped run (`Self.tokenRanges`), and every token after `Bearer`,
    /// replaced by `<redacted>`.
    static func redactingTokens(in text: String) -> String {
        let ranges = tokenRanges(in: text)
        var redacted = ""
        var position = text.startIndex
        for range in ranges {
            redacted += text[position..<range.lowerBound] + "<redacted>"
            position = range.upperBound
        }
        redacted += text[position...]
        return redacted.replacing(bearerToken) { match in match.output.0.dropLast(match.output.1.count) + "<redacted>" }
    }

    /// A token after an authorization scheme in text (`Bearer 8f3a…`): RFC 6750's token68.
    private static var bearerToken: Regex<(Substring, Substring)> { #/(?i:bearer)\s+([A-Za-z0-9\-._~+/]{8,}=*)/# }

    /// Whether `text` holds a token-shaped run.
    static func containsToken(_ text: String) -> Bool {
        !tokenRanges(in: text).isEmpty
    }

    /// The runs of `text` shaped as a JSON Web Token, signed or encrypted: `eyJ` (a base64url
    /// JSON object's start), then base64url segments joined by dots, three or more (five for an
    /// encrypted one), padded or not, the last possibly empty (an unsigned one). Whatever its
    /// name, such a value is a credential: `{"access": "eyJ…"}`, a token in a text reply, a
    /// session in a query.
    static func tokenRanges(in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var search = text.startIndex
        while let start = text.range(of: "eyJ", range: search..<text.endIndex)?.lowerBound {
            var end = start
            var dots = 0
            var segmentLengths = [0]
            while end < text.endIndex, let scalar = text[end].unicodeScalars.first, text[end].unicodeScalars.count == 1 {
                if scalar == "." {
                    dots += 1
                    segmentLengths.append(0)
                } else if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar == "=" {
                    segmentLengths[segmentLengths.count - 1] += 1
                } else {
                    break
                }
                end = text.index(after: end)
            }
            // A dot after the last segment ends a sentence, not the token.
            while dots > 2, segmentLengths.last == 0 {
                segmentLengths.removeLast()
                dots -= 1
                end = text.index(before: end)
            }
            if dots >= 2, segmentLengths[0] >= 8, segmentLengths[1] >= 4 {
                ranges.append(start..<end)
            }
            search = end > start ? end : text.index(after: start)
        }
        return ranges
    }
}
