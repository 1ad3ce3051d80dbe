/// The directives of a reply's `Cache-Control` header that a private cache acts on (RFC 9111,
/// section 5.2.2, and RFC 5861's two stale directives).
///
/// Directive names are case-insensitive and may come in several header lines or one
/// comma-separated list. Where the header is unclear, the reading is the cautious one the RFC
/// asks for: a `max-age` that is not a number makes the reply stale, the first of two `max-age`s
/// counts, and `no-cache` with field names is read as plain `no-cache`.
package struct CacheControl: Sendable, Equatable, Codable {
    /// `max-age`: seconds the reply is fresh for, from when the origin produced it.
    var maxAge: Int?
    /// `no-store`: the reply is never stored.
    var noStore = false
    /// `no-cache`: the reply may be stored, but is validated with the server before each use.
    var noCache = false
    /// `must-revalidate` (or `proxy-revalidate`'s private twin): once stale, never served
    /// without a successful validation, whatever `stale-if-error` says.
    var mustRevalidate = false
    /// `public`: a shared cache may keep it, even for a request that carried `Authorization`.
    var isPublic = false
    /// `private` (with or without field names, read as without): the reply is for one user,
    /// and never kept where another caller could be answered with it.
    var isPrivate = false
    /// `s-maxage`: a shared cache's `max-age`; like `public`, it lets a shared cache keep a
    /// reply to a request with `Authorization`.
    var sharedMaxAge: Int?
    /// `stale-while-revalidate`: seconds after going stale during which the reply may be served
    /// while it is validated in the background.
    var staleWhileRevalidate: Int?
    /// `stale-if-error`: seconds after going stale during which the reply may be served when the
    /// server cannot be reached or answers 5xx.
    var staleIfError: Int?

    /// The greatest number of seconds a directive holds: RFC 9111 (section 1.2.2) reads larger
    /// ones as this.
    static let maxSeconds = 2_147_483_648

    init() {}

    /// Whether a reply to a request that carried credentials may serve other callers: the server
    /// says so with `public` or `s-maxage` (RFC 9111, section 3.5), and not `private`. RFC 9111
    /// also lets `must-revalidate` allow it; this cache does not, as it says nothing of who else
    /// may read the reply.
    var allowsSharingAuthorized: Bool {
        (isPublic || sharedMaxAge != nil) && !isPrivate
    }

    /// Reads the values of every `Cache-Control` line of a reply, in order.
    init(_ lines: some Sequence<String>) {
        for line in lines {
            for directive in Self.directives(in: line) {
                apply(name: directive.name, argument: directive.argument)
            }
        }
    }

    private mutating func apply(name: String, argument: String?) {
        switch name {
        case "max-age":
            // The first counts; one that is not a number makes the reply stale.
            if maxAge == nil { maxAge = Self.seconds(argument) ?? 0 }
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "must-revalidate": mustRevalidate = true
        case "public": isPublic = true
        case "private": isPrivate = true
        case "s-maxage":
            if sharedMaxAge == nil { sharedMaxAge = Self.seconds(argument) ?? 0 }
        case "stale-while-revalidate":
            if staleWhileRevalidate == nil { staleWhileRevalidate = Self.seconds(argument) }
        case "stale-if-error":
            if staleIfError == nil { staleIfError = Self.seconds(argument) }
        default: break  // proxy-revalidate, no-transform: not this cache's concern
        }
    }

    /// A delta-seconds argument: digits only, capped at `maxSeconds`.
    static func seconds(_ argument: String?) -> Int? {
        guard let argument, !argument.isEmpty, argument.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(argument).map { min($0, maxSeconds) } ?? maxSeconds
    }

    /// The directives of one header line: `name` or `name=argument`, the argument a token or a
    /// quoted string; names lowercased; empty list items skipped.
    static func directives(in line: String) -> [(name: String, argument: String?)] {
        var result: [(name: String, argument: String?)] = []
        var characters = Substring(line)
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "\t" || $0 == "," }
            let name = characters.prefix { $0 != "=" && $0 != "," }
            characters = characters.dropFirst(name.count)
            var argument: String?
            if characters.first == "=" {
                characters = characters.dropFirst()
                if characters.first == "\"" {
                    // A quoted string: up to the closing quote, a backslash escaping what follows.
                    characters = characters.dropFirst()
                    var text = ""
                    var escaped = false
                    while let character = characters.first {
                        characters = characters.dropFirst()
                        if escaped {
                            text.append(character)
                            escaped = false
                        } else if character == "\\" {
                            escaped = true
                        } else if character == "\"" {
                            break
                        } else {
                            text.append(character)
                        }
                    }
                    argument = text
                    characters = characters.drop { $0 != "," }
                } else {
                    let token = characters.prefix { $0 != "," }
                    characters = characters.dropFirst(token.count)
                    argument = token.trimmingWhitespace
                }
            }
            let trimmed = name.trimmingWhitespace.lowercased()
            if !trimmed.isEmpty { result.append((trimmed, argument)) }
        }
        return result
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
