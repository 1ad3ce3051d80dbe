import Foundation

/// The members of a JSON object, or the elements of a JSON array, as the bytes they were written
/// in: how JSON-RPC envelopes are read, so that a result or an error's data reaches its decoder
/// exactly as the server wrote it (every digit of a number kept) and is parsed once, by that
/// decoder. Foundation's `JSONDecoder` decodes values but never says where they were; this scan
/// checks the JSON grammar (RFC 8259) of what it skips and remembers where each part lies.
///
/// The scan keeps no stack of its own beyond one byte per open container, and refuses nesting
/// deeper than `maxDepth`, so hostile input costs time and memory in proportion to its size.
package struct JSONSlices {
    /// Deeper nesting is refused, as `JSONDecoder` refuses it.
    package static let maxDepth = 512

    /// A member of an object: its key and where its value lies in the scanned bytes.
    package struct Member {
        package var key: String
        package var value: Range<Int>
    }

    /// What the bytes hold at the top level, for messages.
    package enum Kind: String {
        case object = "an object", array = "an array", string = "a string", number = "a number"
        case boolean = "a boolean", null = "null"
    }

    package struct SyntaxError: Error {}

    package let bytes: Data

    package init(_ bytes: Data) {
        self.bytes = Data(bytes)
    }

    /// The kind of the one value the bytes hold; nil when they are not JSON.
    package var kind: Kind? {
        var scanner = Scanner(bytes: bytes)
        guard let kind = scanner.peekKind(), (try? scanner.skipValue()) != nil, scanner.atEnd() else { return nil }
        return kind
    }

    /// The kind of the value the bytes start with, from its first byte, without reading it
    /// whole; nil for none.
    package var firstKind: Kind? {
        var scanner = Scanner(bytes: bytes)
        return scanner.peekKind()
    }

    /// The bytes of `range`.
    package subscript(range: Range<Int>) -> Data {
        bytes.subdata(in: range)
    }

    /// The object's members in order; nil when the bytes are JSON but no object, and a
    /// `SyntaxError` when they are not JSON.
    package func members() throws(SyntaxError) -> [Member]? {
        var scanner = Scanner(bytes: bytes)
        guard scanner.peekKind() == .object else {
            try scanner.skipValue()
            guard scanner.atEnd() else { throw SyntaxError() }
            return nil
        }
        let members = try scanner.members()
        guard scanner.atEnd() else { throw SyntaxError() }
        return members
    }

    /// The array's elements in order; nil when the bytes are JSON but no array.
    package func elements() throws(SyntaxError) -> [Range<Int>]? {
        var scanner = Scanner(bytes: bytes)
        guard scanner.peekKind() == .array else {
            try scanner.skipValue()
            guard scanner.atEnd() else { throw SyntaxError() }
            return nil
        }
        let elements = try scanner.elements()
        guard scanner.atEnd() else { throw SyntaxError() }
        return elements
    }

    /// What `ranges(from:_:)` does with a value.
    package enum WalkAction<Context> {
        /// Go into the object or array, its values judged with this context.
        case descend(Context)
        /// Take the whole value's range.
        case take
        /// Leave the value as it is.
        case leave
    }

    /// The ranges of the values `judge` takes, found in one pass over the bytes (a value is
    /// scanned once, however deep it lies). `judge` is asked of each value it reaches, with the key
    /// it is under (nil for an array's element and the top), its kind, its text when it is a
    /// string (decoded only when asked for), and the context its container was entered with.
    package func ranges<Context>(
        from context: Context, _ judge: (_ key: String?, _ kind: Kind, _ text: () -> String?, _ context: Context) -> WalkAction<Context>
    ) throws(SyntaxError) -> [Range<Int>] {
        var scanner = Scanner(bytes: bytes)
        var taken: [Range<Int>] = []
        try scanner.walk(key: nil, context: context, depth: 0, judge: judge, into: &taken)
        guard scanner.atEnd() else { throw SyntaxError() }
        return taken
    }

    private struct Scanner {
        let bytes: Data
        var index: Int

        /// One value, judged, and the values within it as the judge says.
        mutating func walk<Context>(
            key: String?, context: Context, depth: Int,
            judge: (_ key: String?, _ kind: Kind, _ text: () -> String?, _ context: Context) -> WalkAction<Context>,
            into taken: inout [Range<Int>]
        ) throws(SyntaxError) {
            guard let kind = peekKind() else { throw SyntaxError() }
            let start = index
            switch kind {
            case .object, .array:
                switch judge(key, kind, { nil }, context) {
                case .leave:
                    try skipValue()
                case .take:
                    try skipValue()
                    taken.append(start..<index)
                case .descend(let inner):
                    guard depth < JSONSlices.maxDepth else { throw SyntaxError() }
                    try walkContents(of: kind, context: inner, depth: depth + 1, judge: judge, into: &taken)
                }
            case .string:
                let escaped = try skipString()
                let range = start..<index
                let text = { [bytes] () -> String? in
                    let raw = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
                    if !escaped, let text = String(validating: raw, as: UTF8.self) { return text }
                    return try? JSONDecoder().decode(String.self, from: bytes.subdata(in: range))
                }
                if case .take = judge(key, kind, text, context) { taken.append(range) }
            case .number, .boolean, .null:
                try skipValue()
                if case .take = judge(key, kind, { nil }, context) { taken.append(start..<index) }
            }
        }

        /// The members or elements of the object or array at `index`, each walked.
        private mutating func walkContents<Context>(
            of kind: Kind, context: Context, depth: Int,
            judge: (_ key: String?, _ kind: Kind, _ text: () -> String?, _ context: Context) -> WalkAction<Context>,
            into taken: inout [Range<Int>]
        ) throws(SyntaxError) {
            let isObject = kind == .object
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            try expect(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            skipWhitespace()
            if byte == close {
                index += 1
                return
            }
            while true {
                var key: String?
                if isObject {
                    key = try string()
                    try expect(UInt8(ascii: ":"))
                }
                skipWhitespace()
                try walk(key: key, context: context, depth: depth, judge: judge, into: &taken)
                skipWhitespace()
                guard let next = byte else { throw SyntaxError() }
                index += 1
                if next == close { return }
                guard next == UInt8(ascii: ",") else { throw SyntaxError() }
            }
        }

        init(bytes: Data) {
            self.bytes = bytes
            self.index = bytes.startIndex
        }

        private var byte: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func atEnd() -> Bool {
            skipWhitespace()
            return index == bytes.endIndex
        }

        mutating func peekKind() -> Kind? {
            skipWhitespace()
            guard let byte else { return nil }
            switch byte {
            case UInt8(ascii: "{"): return .object
            case UInt8(ascii: "["): return .array
            case UInt8(ascii: "\""): return .string
            case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
            case UInt8(ascii: "n"): return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
            default: return nil
            }
        }

        private mutating func expect(_ expected: UInt8) throws(SyntaxError) {
            skipWhitespace()
            guard byte == expected else { throw SyntaxError() }
            index += 1
        }

        mutating func members() throws(SyntaxError) -> [Member] {
            try expect(UInt8(ascii: "{"))
            var members: [Member] = []
            skipWhitespace()
            if byte == UInt8(ascii: "}") {
                index += 1
                return members
            }
            while true {
                let key = try string()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let start = index
                try skipValue()
                members.append(Member(key: key, value: start..<index))
                skipWhitespace()
                guard let next = byte else { throw SyntaxError() }
                index += 1
                if next == UInt8(ascii: "}") { return members }
                guard next == UInt8(ascii: ",") else { throw SyntaxError() }
            }
        }

        mutating func elements() throws(SyntaxError) -> [Range<Int>] {
            try expect(UInt8(ascii: "["))
            var elements: [Range<Int>] = []
            skipWhitespace()
            if byte == UInt8(ascii: "]") {
                index += 1
                return elements
            }
            while true {
                skipWhitespace()
                let start = index
                try skipValue()
                elements.append(start..<index)
                skipWhitespace()
                guard let next = byte else { throw SyntaxError() }
                index += 1
                if next == UInt8(ascii: "]") { return elements }
                guard next == UInt8(ascii: ",") else { throw SyntaxError() }
            }
        }

        /// A string's text, escapes resolved.
        private mutating func string() throws(SyntaxError) -> String {
            skipWhitespace()
            let start = index
            let escaped = try skipString()
            let raw = bytes[(start + 1)..<(index - 1)]
            if !escaped, let text = String(validating: raw, as: UTF8.self) { return text }
            guard let text = try? JSONDecoder().decode(String.self, from: bytes.subdata(in: start..<index)) else { throw SyntaxError() }
            return text
        }

        /// Skips one value of any kind, checking its grammar. Containers are walked with one byte
        /// per open container, never by recursion.
        mutating func skipValue() throws(SyntaxError) {
            var open: [UInt8] = []
            while true {
                skipWhitespace()
                guard let first = byte else { throw SyntaxError() }
                switch first {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    index += 1
                    skipWhitespace()
                    let close = first == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if byte == close {
                        index += 1
                    } else {
                        open.append(first)
                        guard open.count <= JSONSlices.maxDepth else { throw SyntaxError() }
                        if first == UInt8(ascii: "{") { try skipKey() }
                        continue
                    }
                case UInt8(ascii: "\""):
                    _ = try skipString()
                case UInt8(ascii: "t"):
                    try skipLiteral("true")
                case UInt8(ascii: "f"):
                    try skipLiteral("false")
                case UInt8(ascii: "n"):
                    try skipLiteral("null")
                default:
                    try skipNumber()
                }
                // After a value: close what ends here, or go on to the next member or element.
                while let container = open.last {
                    skipWhitespace()
                    guard let next = byte else { throw SyntaxError() }
                    index += 1
                    if next == UInt8(ascii: ",") {
                        if container == UInt8(ascii: "{") { try skipKey() }
                        break
                    }
                    guard next == (container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw SyntaxError() }
                    open.removeLast()
                }
                if open.isEmpty { return }
            }
        }

        /// A member's key and its colon.
        private mutating func skipKey() throws(SyntaxError) {
            skipWhitespace()
            guard byte == UInt8(ascii: "\"") else { throw SyntaxError() }
            _ = try skipString()
            try expect(UInt8(ascii: ":"))
        }

        /// Skips a string; returns whether it holds an escape.
        private mutating func skipString() throws(SyntaxError) -> Bool {
            guard byte == UInt8(ascii: "\"") else { throw SyntaxError() }
            index += 1
            var escaped = false
            while let current = byte {
                index += 1
                switch current {
                case UInt8(ascii: "\""):
                    return escaped
                case UInt8(ascii: "\\"):
                    escaped = true
                    guard let escape = byte else { throw SyntaxError() }
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let hex = byte, hex.isHexDigit else { throw SyntaxError() }
                            index += 1
                        }
                    default:
                        throw SyntaxError()
                    }
                case 0..<0x20:
                    throw SyntaxError()
                default:
                    break
                }
            }
            throw SyntaxError()
        }

        private mutating func skipLiteral(_ literal: StaticString) throws(SyntaxError) {
            let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            guard bytes.endIndex - index >= text.count, bytes[index..<(index + text.count)].elementsEqual(text) else { throw SyntaxError() }
            index += text.count
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func skipNumber() throws(SyntaxError) {
            if byte == UInt8(ascii: "-") { index += 1 }
            guard let first = byte, first.isDigit else { throw SyntaxError() }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if byte == UInt8(ascii: ".") {
                index += 1
                guard byte?.isDigit == true else { throw SyntaxError() }
                skipDigits()
            }
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                index += 1
                if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { index += 1 }
                guard byte?.isDigit == true else { throw SyntaxError() }
                skipDigits()
            }
        }

        private mutating func skipDigits() {
            while byte?.isDigit == true { index += 1 }
        }
    }
}

private extension UInt8 {
    var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    var isHexDigit: Bool { isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20) }
}

extension JSONSlices {
    /// The JSON text at `range`, as it was written.
    package func text(of range: Range<Int>) -> String {
        String(decoding: self[range], as: UTF8.self)
    }

    /// What kind of JSON value is at `range` (`a string`, `a number`), for messages that must not
    /// quote what the server wrote; nil is `none`.
    package func kind(at range: Range<Int>?) -> String {
        guard let range, !range.isEmpty else { return "none" }
        switch bytes[range.lowerBound] {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }

    /// The string at `range`, escapes resolved; nil when it holds no string.
    package func string(at range: Range<Int>) -> String? {
        guard bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        return try? JSONDecoder().decode(String.self, from: self[range])
    }
}
