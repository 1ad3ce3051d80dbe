import Foundation

/// An amount in a currency: the app's own type, which apis/billing.yaml uses with `swift: Money`
/// instead of generating one. `nonisolated`, as generated types are, so that it stays `Codable`
/// and `Sendable` off the main actor in a target whose default isolation is the main actor.
public nonisolated struct Money: Codable, Hashable, Sendable {
    public var amount: Decimal
    /// ISO 4217: `EUR`, `USD`.
    public var currency: String

    public init(amount: Decimal, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}
