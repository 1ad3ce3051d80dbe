import APIRuntime
import Foundation
import ReferenceClient
import Testing

/// Generated models write out `init(from:)` and `encode(to:)` with `FieldKey` literals instead of
/// deriving `Codable` (a fraction of the compile time). These tests hold them to what the derived
/// conformance did: same bytes, same nil handling, same errors.
@Suite("Generated models code as derived Codable does")
struct ModelCodingTests {
    /// `RefItem` as the generator used to write it: derived `Codable`, a `CodingKeys` enum
    /// for the renamed field.
    struct DerivedItem: Codable, Equatable {
        var id: UUID
        var `default`: Bool
        var price: Double
        var sizes: [Int64]
        var attributes: [String: [String]]
        var payload: Data?
        var kind: RefKind
        var children: [DerivedItem]

        enum CodingKeys: String, CodingKey {
            case id, `default`, price = "price_eur", sizes, attributes, payload, kind, children
        }
    }

    static let child = RefItem(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, default: false, price: 0.5,
        sizes: [], attributes: [:], payload: Data([0, 255]), kind: .subscription, children: []
    )
    static let item = RefItem(
        id: UUID(uuidString: "00000000-0000-0000-0000-00000000002A")!, default: true, price: 9.5,
        sizes: [1, -2], attributes: ["color": ["red", "blue"]], kind: .digital, children: [child]
    )

    @Test("Encoding gives the derived conformance's bytes: the renamed key, a nil optional left out, nested models")
    func encodesAsDerived() throws {
        let encoder = JSONCoding.makeEncoder()
        let written = try encoder.encode(Self.item)
        #expect(written == (try encoder.encode(DerivedItem(Self.item))))
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""price_eur":9.5"#))
        #expect(!text.contains(#""price":"#))
        #expect(text.contains(#""payload":"AP8=""#)) // the child's
        #expect(text.components(separatedBy: #""payload""#).count == 2) // the parent's nil is left out
    }

    @Test("Decoding reads what the derived conformance wrote; a missing or null optional is nil")
    func decodesAsDerived() throws {
        let decoder = JSONCoding.makeDecoder()
        let derivedBytes = try JSONCoding.makeEncoder().encode(DerivedItem(Self.item))
        #expect(try decoder.decode(RefItem.self, from: derivedBytes) == Self.item)

        let withNull = #"{"id":"00000000-0000-0000-0000-000000000001","default":false,"price_eur":1,"sizes":[],"attributes":{},"payload":null,"kind":"PHYSICAL","children":[]}"#
        let decoded = try decoder.decode(RefItem.self, from: Data(withNull.utf8))
        #expect(decoded.payload == nil)
        #expect(decoded.price == 1)
        #expect(decoded.kind == .physical)
    }

    @Test("A missing required field is DecodingError.keyNotFound naming its wire name, as derived")
    func missingField() throws {
        let missing = #"{"id":"00000000-0000-0000-0000-000000000001","default":false,"sizes":[],"attributes":{},"kind":"PHYSICAL","children":[]}"#
        #expect {
            try JSONCoding.makeDecoder().decode(RefItem.self, from: Data(missing.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "price_eur"
        }
        // A wrong type names the field's path, as the derived conformance does.
        let wrongType = missing.replacingOccurrences(of: #""sizes":[]"#, with: #""sizes":"none","price_eur":2"#)
        #expect {
            try JSONCoding.makeDecoder().decode(RefItem.self, from: Data(wrongType.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["sizes"]
        }
    }

    @Test("== compares every field, as the derived Equatable does: a difference in any one makes two models unequal")
    func equalityComparesEveryField() {
        let item = Self.item
        #expect(item == RefItem(
            id: item.id, default: item.default, price: item.price, sizes: item.sizes, attributes: item.attributes,
            payload: item.payload, kind: item.kind, children: item.children
        ))
        let variants = [
            RefItem(id: Self.child.id, default: item.default, price: item.price, sizes: item.sizes, attributes: item.attributes, kind: item.kind, children: item.children),
            RefItem(id: item.id, default: false, price: item.price, sizes: item.sizes, attributes: item.attributes, kind: item.kind, children: item.children),
            RefItem(id: item.id, default: item.default, price: 9.75, sizes: item.sizes, attributes: item.attributes, kind: item.kind, children: item.children),
            RefItem(id: item.id, default: item.default, price: item.price, sizes: [1], attributes: item.attributes, kind: item.kind, children: item.children),
            RefItem(id: item.id, default: item.default, price: item.price, sizes: item.sizes, attributes: ["color": ["red"]], kind: item.kind, children: item.children),
            RefItem(id: item.id, default: item.default, price: item.price, sizes: item.sizes, attributes: item.attributes, payload: Data(), kind: item.kind, children: item.children),
            RefItem(id: item.id, default: item.default, price: item.price, sizes: item.sizes, attributes: item.attributes, kind: .physical, children: item.children),
            RefItem(id: item.id, default: item.default, price: item.price, sizes: item.sizes, attributes: item.attributes, kind: item.kind, children: []),
        ]
        for variant in variants {
            #expect(variant != item)
            #expect(DerivedItem(variant) != DerivedItem(item)) // the derived conformance agrees
        }
        // Doubles compare as `==` does: NaN is unequal to itself, -0 equals 0.
        let nan = RefItem(id: item.id, default: true, price: .nan, sizes: [], attributes: [:], kind: .digital, children: [])
        #expect(nan != nan)
        let zero = RefItem(id: item.id, default: true, price: 0, sizes: [], attributes: [:], kind: .digital, children: [])
        let minusZero = RefItem(id: item.id, default: true, price: -0.0, sizes: [], attributes: [:], kind: .digital, children: [])
        #expect(zero == minusZero)
    }

    @Test("FieldComparison's scalar methods agree with ==: both absent is equal, one absent is not, NaN is unequal to itself")
    func scalarComparisonsAgreeWithEquality() {
        #expect(FieldComparison.int(7, 7) && !FieldComparison.int(7, 8))
        #expect(FieldComparison.int64(.max, .max) && !FieldComparison.int64(.max, .min))
        #expect(FieldComparison.string("café", "cafe\u{301}") && !FieldComparison.string("a", "A"))
        #expect(FieldComparison.bool(true, true) && !FieldComparison.bool(true, false))
        #expect(!FieldComparison.double(.nan, .nan) && FieldComparison.double(0, -0.0))
        #expect(FieldComparison.intIfPresent(nil, nil) && !FieldComparison.intIfPresent(nil, 0) && !FieldComparison.intIfPresent(0, nil))
        #expect(FieldComparison.intIfPresent(3, 3) && !FieldComparison.intIfPresent(3, 4))
        #expect(FieldComparison.int64IfPresent(nil, nil) && !FieldComparison.int64IfPresent(1, nil))
        #expect(FieldComparison.stringIfPresent(nil, nil) && !FieldComparison.stringIfPresent("", nil) && FieldComparison.stringIfPresent("x", "x"))
        #expect(FieldComparison.boolIfPresent(false, false) && !FieldComparison.boolIfPresent(false, nil))
        #expect(!FieldComparison.doubleIfPresent(.nan, .nan) && FieldComparison.doubleIfPresent(nil, nil) && !FieldComparison.doubleIfPresent(0, nil))
    }

    @Test("FieldKey is a string key only")
    func fieldKey() {
        let key: FieldKey = "user_id"
        #expect(key.stringValue == "user_id")
        #expect(key.intValue == nil)
        #expect(FieldKey(intValue: 0) == nil)
    }
}

// In an extension, so that `DerivedItem` keeps its implicit memberwise initializer.
extension ModelCodingTests.DerivedItem {
    init(_ item: RefItem) {
        self.init(
            id: item.id, default: item.default, price: item.price, sizes: item.sizes,
            attributes: item.attributes, payload: item.payload, kind: item.kind, children: item.children.map(Self.init)
        )
    }
}
