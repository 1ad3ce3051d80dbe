import APIGenKit
import Foundation

/// Swift names for what a document names: `pet_status` → `PetStatus` (a type), `created_at` →
/// `createdAt` (a member), kept apart from names Swift or the manifests already use.
enum Naming {
    /// Type names the manifests give a meaning of their own, beside Swift's.
    private static let manifestTypeNames: Set<String> = ["CalendarDate", "JSON", "File", "Float", "Int32", "Int64"]

    static func typeName(_ raw: String) -> String {
        let words = self.words(raw)
        var name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if name.isEmpty { name = "Value" }
        if name.first!.isNumber { name = "_" + name }
        if SwiftIdentifier.reservedTypeNames.contains(name) || manifestTypeNames.contains(name) { name += "Model" }
        return name
    }

    /// A member name in lower camel case; a leading acronym is lowered whole (`URLPath` → `urlPath`).
    static func memberName(_ raw: String) -> String {
        let words = self.words(raw)
        guard let first = words.first else { return "value" }
        var name = lowered(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if name.first!.isNumber { name = "_" + name }
        return name
    }

    private static func lowered(_ word: String) -> String {
        let characters = Array(word)
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        // `URLPath`: keep the `P` of the next word; `URL`, `Id`: lower the run.
        let run = upper == characters.count || upper <= 1 ? upper : upper - 1
        return String(characters[..<run]).lowercased() + String(characters[run...])
    }

    /// The ASCII words of a name, accents folded.
    private static func words(_ raw: String) -> [String] {
        let folded = raw.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        return folded.unicodeScalars
            .split { !(("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)) }
            .map { String(String.UnicodeScalarView($0)) }
    }
}

/// Names handed out once in a scope; a taken name gets a number (`Pet2`). Names that differ only
/// in case are taken as the same, since their files would collide on case-insensitive disks.
struct NameBook {
    private var taken: Set<String> = []

    mutating func claim(_ proposed: String) -> String {
        var name = proposed
        var number = 2
        while taken.contains(name.lowercased()) {
            name = proposed + String(number)
            number += 1
        }
        taken.insert(name.lowercased())
        return name
    }
}
