import APIRuntime
import ExampleClient
import Foundation
import Logging

// What the samples of README.md and docs/ take as given: an app's own files, logger, token
// source and screens (TLS material is the PEM files' bytes). The samples themselves are in Extracted/, written by `make doc-samples`.

let photoURL = URL(fileURLWithPath: "photo.jpg")
let pdfURL = URL(fileURLWithPath: "q3.pdf")
let downloadsURL = URL(fileURLWithPath: "Downloads/q3.pdf")
let logger = Logger(label: "app")
let tag = "\"v1\""
let area = Geo_Rectangle()
let route: [Geo_Point] = []
let companyCAPEM = Data()
let clientPEM = Data()
let keyPEM = Data()

struct Tokens: TokenProvider {
    func initialToken() async throws -> String { "token" }
    func refreshToken(replacing rejected: String) async throws -> String { "token" }
}

let tokens = Tokens()

func show(_ value: Any) {}
