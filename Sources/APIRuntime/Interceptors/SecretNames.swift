/// Which header, query item, JSON field and gRPC metadata names hold secrets, so that logs show
/// `<redacted>` for their values.
///
/// A name is secret when one of its words is: words are split at `-`, `_`, `.` and lower-to-upper
/// case changes, so `X-API-Key`, `access_token`, `refreshToken` and `client.secret` all are. A word
/// that ends with a secret word of five letters or more is one too, for names written as one
/// word (`accesstoken`, `apitoken`, `xsrftoken`). Names can be added one by one (`names`) and
/// words removed or added (`words`).
public struct SecretNames: Sendable, Equatable {
    /// Words that make a name secret wherever they appear in it.
    public var words: Set<String> {
        didSet { suffixWords = Self.suffixWords(of: words) }
    }
    /// Whole names that are secret whatever their words (matched without regard to case).
    public var names: Set<String>

    /// The words of the standard set.
    public static let standardWords: Set<String> = [
        "token", "password", "passwd", "passphrase", "secret", "signature", "sig", "key", "apikey",
        "authorization", "auth", "cookie", "credential", "credentials", "session", "sessionid", "sessid", "sid", "otp", "pin",
        "jwt", "bearer", "pwd", "passcode", "verifier", "authentication",
    ]

    /// Whole names of the standard set: words too common to be secret in every name
    /// (`access_level`, `country_code`), which are as a name of their own (an OAuth `code`, a
    /// token pair's `access` and `refresh`).
    public static let standardNames: Set<String> = ["access", "refresh", "code"]

    /// Every name with one of `standardWords` in it, and `standardNames`.
    public static let standard = SecretNames()

    /// Names holding one of `words`, and the whole `names`; both compared without regard to case.
    public init(words: Set<String> = SecretNames.standardWords, names: Set<String> = SecretNames.standardNames) {
        self.words = Set(words.map { $0.lowercased() })
        self.names = Set(names.map { $0.lowercased() })
        suffixWords = Self.suffixWords(of: self.words)
    }

    /// The words of five letters or more, which also make secret a word that ends with them.
    private var suffixWords: [String]

    private static func suffixWords(of words: Set<String>) -> [String] {
        words.filter { $0.count >= 5 }.sorted()
    }

    /// Headers that carry credentials whatever `words` says.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Whether a header of this name holds a secret: a credential header, or a secret name.
    public func containsHeader(_ name: String) -> Bool {
        Self.credentialHeaders.contains(name.lowercased()) || contains(name)
    }

    /// Whether `name` (a query item, a JSON field, metadata) is secret: one of `names`, or one with a secret word in it.
    public func contains(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if names.contains(lowered) || words.contains(lowered) { return true }
        return Self.words(of: name).contains { word in
            // A word that ends with a long one and is not that word (compared as characters are).
            words.contains(word) || suffixWords.contains { word.hasSuffix($0) && word != $0 }
        }
    }

    /// `X-API-Key` → `x`, `api`, `key`; `refreshToken` → `refresh`, `token`; `password2` →
    /// `password`, `2` (Django's second password field).
    static func words(of name: String) -> [String] {
        // Most names are ASCII, whose bytes say what the characters' properties would.
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return unicodeWords(of: name) }
        var words: [String] = []
        var current: [UInt8] = []
        var previousIsLower = false
        var previousIsDigit = false
        for byte in name.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: " ") {
                if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
                current = []
                previousIsLower = false
                previousIsDigit = false
                continue
            }
            let isUpper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            let isLower = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if (isUpper && previousIsLower) || isDigit != previousIsDigit, !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current = []
            }
            current.append(isUpper ? byte + 32 : byte)
            previousIsLower = isLower
            previousIsDigit = isDigit
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// `words(of:)` for a name with characters beyond ASCII, read by their Unicode properties.
    private static func unicodeWords(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousIsLower = false
        var previousIsDigit = false
        for character in name {
            if character == "-" || character == "_" || character == "." || character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousIsLower = false
                previousIsDigit = false
                continue
            }
            let startsWord = (character.isUppercase && previousIsLower) || (character.isNumber != previousIsDigit)
            if startsWord, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousIsLower = character.isLowercase
            previousIsDigit = character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
