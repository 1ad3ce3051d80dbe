import APIRuntime
import APITestSupport
import ExampleClient
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import WireTestSupport

/// apis/billing.yaml on the wire: Decimal, Float and Int32, calendar dates, Unix times, defaults,
/// members a model does not declare, unions with and without a discriminator, and the app's own
/// `Money` type.
@Suite("Billing types on a loopback server")
struct BillingTypesTests {
    /// An invoice as a server writes it: a member the client does not declare (`memo`), no
    /// `status` (its default applies), a line without `quantity`.
    static let invoiceJSON = """
        {"number": 2147483647, "total": {"amount": 1234.56, "currency": "EUR"}, "tax": 0.1, "discount": 0.25,
         "due": "2024-02-29", "issued_at": 1700000000, "paid_at": 1700000000123.9,
         "lines": [{"description": "Hosting", "amount": 19.99}], "memo": {"ref": ["a", 1, null]}}
        """

    @Test("A reply decodes: exact decimals, a leap day, Unix seconds and milliseconds, defaults, kept members")
    func decodesInvoice() async throws {
        try await withServer({ _ in .json("[\(Self.invoiceJSON)]") }) { server, manager in
            let invoices = try await ListInvoicesAPI().using(manager).start()
            let invoice = try #require(invoices.first)
            #expect(invoice.number == .max)
            #expect(invoice.total == Money(amount: Decimal(string: "1234.56")!, currency: "EUR"))
            #expect(invoice.tax == Decimal(string: "0.1")! && invoice.tax + Decimal(string: "0.2")! == Decimal(string: "0.3")!)
            #expect(invoice.discount == 0.25)
            #expect(invoice.due == CalendarDate(year: 2024, month: 2, day: 29))
            #expect(invoice.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(invoice.paidAt == Date(timeIntervalSince1970: 1_700_000_000.1239))
            #expect(invoice.status == .draft)
            #expect(invoice.lines == [InvoiceLine(description: "Hosting", quantity: 1, amount: Decimal(string: "19.99")!)])
            #expect(invoice.additionalProperties == ["memo": .object(["ref": .array([.string("a"), .integer(1), .null])])])
            // Defaults and the Unix-seconds parameter left out: limit and status go as their defaults.
            #expect(try #require(server.requests.first).query == "limit=50&status=open")
        }
    }

    @Test("Encoding writes what was read: kept members, whole Unix times, the calendar date as text")
    func encodesInvoice() throws {
        let invoice = try JSONCoding.makeDecoder().decode(Invoice.self, from: Data(Self.invoiceJSON.utf8))
        let written = try JSONCoding.makeEncoder().encode(invoice)
        let object = try #require(JSONValue.parse(written))
        #expect(object["memo"] == .object(["ref": .array([.string("a"), .integer(1), .null])]))
        #expect(object["issued_at"] == .integer(1_700_000_000))
        #expect(object["paid_at"] == .integer(1_700_000_000_123))
        #expect(object["due"] == .string("2024-02-29"))
        #expect(object["status"] == .string("draft"))
        // Unix times are written whole, so a second round trip changes nothing.
        let again = try JSONCoding.makeDecoder().decode(Invoice.self, from: written)
        #expect(try JSONCoding.makeEncoder().encode(again) == written)
        #expect(again.paidAt == Date(timeIntervalSince1970: 1_700_000_000.123))
    }

    @Test("Parameters: a Unix-time date as whole seconds, a calendar date as text, defaults overridden")
    func listParameters() async throws {
        try await withServer({ _ in .json("[]") }) { server, manager in
            let api = ListInvoicesAPI(
                since: Date(timeIntervalSince1970: 1_700_000_000.9), due: CalendarDate(year: 2024, month: 5, day: 1),
                limit: 10, status: .paid
            )
            _ = try await api.using(manager).start()
            #expect(try #require(server.requests.first).query == "since=1700000000&due=2024-05-01&limit=10&status=paid")
        }
    }

    @Test("A union with a discriminator: sent as its alternative, decoded by the member's value, an unknown value a decoding error; enum, calendar-date and decimal reply headers")
    func paymentMethod() async throws {
        try await withServer({ _ in
            var reply = Response.json(Self.invoiceJSON)
            reply.headers[HTTPField.Name("X-Invoice-Status")!] = "refunded"
            reply.headers[HTTPField.Name("X-Settles-On")!] = "2024-06-03"
            reply.headers[HTTPField.Name("X-Fee")!] = "0.30"
            return reply
        }) { server, manager in
            let card = PaymentMethod.card(Card(type: "card", brand: "visa", last4: "4242"))
            let (invoice, headers) = try await PayInvoiceAPI(number: 7, body: card).using(manager).startWithHeaders()
            #expect(invoice.number == .max)
            #expect(headers.status == .unknown("refunded") && headers.settlesOn == CalendarDate(year: 2024, month: 6, day: 3))
            #expect(headers.fee == Decimal(string: "0.30"))
            #expect(try #require(server.requests.first).bodyText == #"{"brand":"visa","last4":"4242","type":"card"}"#)

            let decoder = JSONCoding.makeDecoder()
            #expect(try decoder.decode(PaymentMethod.self, from: Data(#"{"type": "bank_transfer", "iban": "CH93"}"#.utf8))
                == .bankTransfer(BankTransfer(type: "bank_transfer", iban: "CH93")))
            #expect(throws: DecodingError.self) { try decoder.decode(PaymentMethod.self, from: Data(#"{"type": "cheque"}"#.utf8)) }
            #expect(throws: DecodingError.self) { try decoder.decode(PaymentMethod.self, from: Data(#"{"iban": "CH93"}"#.utf8)) }
        }
    }

    @Test("A union without a discriminator: each alternative tried in order; a value that is none is an error naming the API")
    func invoiceReference() async throws {
        try await withServer({ request in
            switch request.query {
            case "query=42": .json("42")
            case "query=big": .json("4294967296")
            case "query=code": .json(#""INV-7""#)
            default: .json("[1]")
            }
        }) { _, manager in
            let number = try await ResolveInvoiceAPI(query: "42").using(manager).start()
            let code = try await ResolveInvoiceAPI(query: "code").using(manager).start()
            #expect(number == .int32(42) && code == .string("INV-7"))
            for query in ["big", "list"] {
                let error = await #expect(throws: APIError.self) { try await ResolveInvoiceAPI(query: query).using(manager).start() }
                #expect(error?.api == "ResolveInvoice")
            }
        }
    }
}

@Suite("Calendar dates and Unix times")
struct CalendarDateTests {
    @Test("Only days of the calendar: leap years, month lengths, four-digit years, exact text")
    func validation() {
        #expect(CalendarDate(year: 2024, month: 2, day: 29) != nil && CalendarDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 1900, month: 2, day: 29) == nil && CalendarDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 2024, month: 4, day: 31) == nil && CalendarDate(year: 2024, month: 13, day: 1) == nil)
        #expect(CalendarDate(year: 0, month: 1, day: 1) == nil && CalendarDate(year: 10_000, month: 1, day: 1) == nil)
        for text in ["2024-5-01", "2024-05-01T00:00:00Z", "２０２４-05-01", "+024-05-01", "2024/05/01", "", "2024-00-10"] {
            #expect(CalendarDate(text) == nil, "\(text)")
        }
        #expect(CalendarDate("0001-01-01")?.description == "0001-01-01")
        #expect(CalendarDate(year: 2024, month: 5, day: 1)! < CalendarDate(year: 2024, month: 12, day: 1)!)
    }

    @Test("A date's day depends on the time zone; the day starts at midnight there")
    func timeZones() throws {
        let instant = Date(timeIntervalSince1970: 1_714_521_600) // 2024-05-01T00:00:00Z
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo")), honolulu = try #require(TimeZone(identifier: "Pacific/Honolulu"))
        #expect(CalendarDate(instant, in: tokyo).description == "2024-05-01")
        #expect(CalendarDate(instant, in: honolulu).description == "2024-04-30")
        #expect(CalendarDate(year: 2024, month: 5, day: 1)!.date(in: TimeZone(identifier: "UTC")!) == instant)
    }

    @Test("Unix times round down to whole units and clamp past 64 bits instead of trapping")
    func unixTime() {
        #expect(UnixTime.seconds(Date(timeIntervalSince1970: -1.5)) == -2)
        #expect(UnixTime.milliseconds(Date(timeIntervalSince1970: 1.2345)) == 1234)
        #expect(UnixTime.seconds(Date(timeIntervalSince1970: 1e300)) == .max)
        #expect(UnixTime.milliseconds(Date(timeIntervalSince1970: -1e300)) == .min)
        #expect(UnixTime.date(milliseconds: 1500) == Date(timeIntervalSince1970: 1.5))
    }
}
