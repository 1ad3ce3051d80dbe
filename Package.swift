// swift-tools-version:6.2
import PackageDescription

/// Settings every target of ours shares: Swift 6 language mode (complete strict concurrency)
/// plus the upcoming features that keep `any` and imports explicit.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    // grpc-swift 2 needs these OS versions on Apple platforms; our gRPC transport says
    // `@available(gRPCSwift 2.0, *)` as grpc-swift itself does (Linux has no such limit).
    .enableExperimentalFeature("AvailabilityMacro=gRPCSwift 2.0:macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0"),
]

let package = Package(
    name: "apigen",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "apigen", targets: ["apigen"]),
        // A mock server from the workspace's samples (`apigen serve`), a tool of its own.
        .executable(name: "apigen-serve", targets: ["apigen-serve"]),
        // A contract check of the workspace against a live server (`apigen verify`).
        .executable(name: "apigen-verify", targets: ["apigen-verify"]),
        // What generated code imports; its default transport is URLSession.
        .library(name: "APIRuntime", targets: ["APIRuntime"]),
        // The AsyncHTTPClient transport, for servers: `APIManager.bootstrap { $0.httpTransport = .asyncHTTPClient }`.
        .library(name: "APIAsyncHTTPClient", targets: ["APIAsyncHTTPClient"]),
        // What generated gRPC APIs import: grpc-swift 2 and SwiftProtobuf.
        .library(name: "APIGRPC", targets: ["APIGRPC"]),
        // What APIs that answer with Server-Sent Events or JSON Lines import.
        .library(name: "APIEventStreams", targets: ["APIEventStreams"]),
        // A response cache on disk (SQLite, through GRDB), which a restart of the app keeps.
        .library(name: "APIDiskCache", targets: ["APIDiskCache"]),
        // Build-tool plugins: a target's code generated at build time from its own apis/ folder.
        // The gRPC one also builds swift-protobuf's protoc (C++) and protoc-gen-swift.
        .plugin(name: "APIGenPlugin", targets: ["APIGenPlugin"]),
        .plugin(name: "APIGenGRPCPlugin", targets: ["APIGenGRPCPlugin"]),
        // `swift package generate-apis`: the code written into the source tree, for committing.
        .plugin(name: "GenerateAPIs", targets: ["GenerateAPIs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // TLS for the SwiftNIO-based transports: trust roots, client certificates, and
        // certificate chains verified (and pinned) with swift-certificates.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        // Server-Sent Events and JSON Lines parsing, for APIEventStreams.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        // gRPC: protobuf messages (and protoc-gen-swift, which apigen drives), the gRPC core and
        // its HTTP/2 transport.
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
        // Test-only: protobuf (de)serializers for the real gRPC server the client is tested against.
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", from: "2.4.1"),
        // Test-only: the Mustache implementation apigen's own renderer is checked against.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // `apigen import openapi`: OpenAPI 3.0 and 3.1 documents parsed and validated. Without its
        // default trait (loading external references with Swift concurrency), it builds faster.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0", traits: []),
        // Test-only: the real loopback HTTP server the generated client is tested against.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Test-only: Vapor's multipart parser, which reads what the runtime's multipart bodies send.
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        // APIDiskCache: SQLite, through GRDB (the system's SQLite on Linux: libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // `swift package generate-documentation`: the runtime's DocC reference (`make docs`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // Generator half: manifest model -> validation -> description -> templates -> writer.
        .target(
            name: "APIManifest",
            dependencies: [.product(name: "Yams", package: "Yams")],
            swiftSettings: strictSettings
        ),
        // The atomic directory exchange the generator's writer swaps its output in with.
        .target(name: "CDirectoryExchange"),
        .target(
            name: "APIGenKit",
            dependencies: [
                "APIManifest",
                "APIWireFormat",
                "CDirectoryExchange",
                .product(name: "SwiftProtobufPluginLibrary", package: "swift-protobuf"),
            ],
            swiftSettings: strictSettings
        ),
        // OpenAPI documents turned into manifests (`apigen import openapi`).
        .target(
            name: "OpenAPIImport",
            dependencies: [
                "APIManifest",
                "APIGenKit",
                .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
            ],
            swiftSettings: strictSettings
        ),
        // The commands that generate (generate, check, lint), shared by the two executables.
        .target(
            name: "APIGenCommands",
            dependencies: ["APIGenKit", "APIManifest", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        // The command line: generation and the commands around it (init, template, schema,
        // import, export).
        .executableTarget(
            name: "apigen",
            dependencies: [
                "APIGenCommands",
                "APIGenKit",
                "OpenAPIImport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // What the plugins run: generation alone, so that an app building with them never
        // compiles `import openapi` and OpenAPIKit.
        .executableTarget(
            name: "apigen-generate",
            dependencies: [
                "APIGenCommands",
                "APIGenKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // The contract check of `apigen verify`: the workspace's safe APIs called on a live
        // server through the runtime (a bare manager, gRPC's transport included), their replies
        // checked against the manifests and protos. A tool of its own, as the mock server is.
        .target(
            name: "APIGenVerify",
            dependencies: [
                "APIGenKit",
                "APIGRPC",
                "APIManifest",
                "APIRuntime",
                "APIWireFormat",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "apigen-verify",
            dependencies: [
                "APIGenCommands",
                "APIGenKit",
                "APIGenVerify",
                "APIManifest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // The mock server of `apigen serve`: the workspace's samples over Hummingbird. A tool of its
        // own, so that neither `apigen` (and so `make`) nor the build plugins compile a server.
        .target(
            name: "APIGenServe",
            dependencies: [
                "APIGenKit",
                "APIManifest",
                "APIWireFormat",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "apigen-serve",
            dependencies: [
                "APIGenCommands",
                "APIGenKit",
                "APIGenServe",
                "APIManifest",
                "APIWireFormat",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // The plugins, whose shared files are symbolic links into Plugins/Shared.
        .plugin(
            name: "APIGenPlugin",
            capability: .buildTool(),
            dependencies: ["apigen-generate"]
        ),
        .plugin(
            name: "APIGenGRPCPlugin",
            capability: .buildTool(),
            dependencies: [
                "apigen-generate",
                .product(name: "protoc", package: "swift-protobuf"),
                .product(name: "protoc-gen-swift", package: "swift-protobuf"),
            ]
        ),
        .plugin(
            name: "GenerateAPIs",
            capability: .command(
                intent: .custom(verb: "generate-apis", description: "Write the generated code of the package's API workspaces into its source tree."),
                permissions: [.writeToPackageDirectory(reason: "To write the generated Swift files into the folders the workspaces name as their output.")]
            ),
            dependencies: ["apigen-generate"]
        ),

        // What goes on the wire, written and read one way by the runtime, the generator, the mock
        // server and the contract check: path templates, base URLs, percent-encoding, JSON
        // values and the JSON-RPC envelope. Foundation alone.
        .target(
            name: "APIWireFormat",
            swiftSettings: strictSettings
        ),
        // Runtime half: what generated code and apps import. It links no networking library
        // beyond Foundation's URLSession, so that a REST-only client builds neither SwiftNIO's
        // networking, AsyncHTTPClient, grpc-swift nor SwiftProtobuf.
        .target(
            name: "APIRuntime",
            dependencies: [
                "APIWireFormat",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        // TLSSettings for the transports on SwiftNIO: NIOSSL configurations, chain verification
        // with pins, and NIOSSL's errors as TLSFailures.
        .target(
            name: "APINIOSSL",
            dependencies: [
                "APIRuntime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The AsyncHTTPClient transport, chosen in the manager's configuration.
        .target(
            name: "APIAsyncHTTPClient",
            dependencies: [
                "APIRuntime",
                "APINIOSSL",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Reply chunks handed on as Data over AsyncHTTPClient's own buffers, not copies.
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        // gRPC: its protocol, message streams and transport, on grpc-swift 2 and SwiftProtobuf.
        .target(
            name: "APIGRPC",
            dependencies: [
                "APIRuntime",
                "APINIOSSL",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                // Network.framework on Apple platforms, as grpc-swift recommends there; NIO's sockets elsewhere.
                .product(
                    name: "GRPCNIOTransportHTTP2TransportServices", package: "grpc-swift-nio-transport",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])
                ),
                .product(
                    name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport",
                    condition: .when(platforms: [.linux, .android, .openbsd, .windows])
                ),
            ],
            swiftSettings: strictSettings
        ),
        // Event-stream replies (Server-Sent Events, JSON Lines), parsed by swift-openapi-runtime.
        .target(
            name: "APIEventStreams",
            dependencies: [
                "APIRuntime",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: strictSettings
        ),
        // The response cache on disk.
        .target(
            name: "APIDiskCache",
            dependencies: [
                "APIRuntime",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Generated by `swift run apigen` from apis/; committed, never edited by hand.
        .target(
            name: "ExampleClient",
            dependencies: ["APIRuntime", "APIGRPC", "APIEventStreams", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            swiftSettings: strictSettings
        ),

        // The reference workspace's committed output (Tests/Fixtures/Reference), compiled so that
        // the reference tests compare against code that is known to build.
        .target(
            name: "ReferenceClient",
            dependencies: ["APIRuntime"],
            path: "Tests/Fixtures/Reference/Expected",
            swiftSettings: strictSettings
        ),

        // What `apigen init` scaffolds (Tests/Fixtures/Init), compiled to prove it builds at once.
        .target(
            name: "InitClient",
            dependencies: ["APIRuntime"],
            path: "Tests/Fixtures/Init/Sources/InitClient",
            swiftSettings: strictSettings
        ),

        // Hostile names and strings (Tests/Fixtures/Hostile): compiling proves none became code.
        .target(
            name: "HostileClient",
            dependencies: ["APIRuntime"],
            path: "Tests/Fixtures/Hostile/Expected",
            swiftSettings: strictSettings
        ),

        // Published OpenAPI documents imported by `apigen import openapi` (Tests/Fixtures/Imported).
        .target(
            name: "ImportedClient",
            dependencies: ["APIRuntime"],
            path: "Tests/Fixtures/Imported/Expected",
            swiftSettings: strictSettings
        ),

        // Manifest types named as the runtime's (Tests/Fixtures/Shadowing): compiling proves
        // generated code never mistakes one for the other.
        .target(
            name: "ShadowingClient",
            dependencies: ["APIRuntime"],
            path: "Tests/Fixtures/Shadowing/Expected",
            swiftSettings: strictSettings
        ),

        // The example workspace's output compiled again as a new Xcode app target compiles its
        // code, every declaration main-actor isolated unless it says otherwise. The sources are
        // the example's own, through a symbolic link.
        .target(
            name: "MainActorClient",
            dependencies: ["APIRuntime", "APIGRPC", "APIEventStreams", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            path: "Tests/Fixtures/MainActor",
            swiftSettings: strictSettings + [.defaultIsolation(MainActor.self)]
        ),

        // Every Swift sample of README.md, docs/ and the DocC articles, extracted by
        // `make doc-samples`, compiled against the example client. Samples bind values they never
        // read, as examples do, so their warnings are not shown.
        .target(
            name: "DocSamples",
            dependencies: [
                "APIRuntime", "APIAsyncHTTPClient", "APIDiskCache", "APIEventStreams", "APIGRPC", "ExampleClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/DocSamples",
            exclude: ["extract.py"],
            swiftSettings: strictSettings + [.unsafeFlags(["-suppress-warnings"])]
        ),

        .testTarget(
            name: "APIManifestTests",
            dependencies: ["APIManifest"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "APIGenKitTests",
            dependencies: [
                "APIGenKit", "APIManifest", "OpenAPIImport", "apigen", "apigen-generate",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        // What the runtime's tests share: a manual clock, a scripted transport, waiting for a
        // condition, a manager shut down after its test.
        .target(
            name: "APITestSupport",
            dependencies: [
                "APIRuntime",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/APITestSupport",
            swiftSettings: strictSettings
        ),
        // What the tests on the wire share: loopback HTTP servers (Hummingbird, and a raw one), a
        // JSON-RPC server, a grpc-swift server, certificates made for TLS tests, and the HTTP
        // transport under test.
        .target(
            name: "WireTestSupport",
            dependencies: [
                "APIRuntime",
                "APIAsyncHTTPClient",
                "APIGRPC",
                "ExampleClient",
                "APITestSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/WireTestSupport",
            swiftSettings: strictSettings
        ),
        // The wire format every part reads: templates, base URLs, the envelope, JSON values.
        .testTarget(
            name: "APIWireFormatTests",
            dependencies: ["APIWireFormat"],
            swiftSettings: strictSettings
        ),
        // The manager's own logic without sockets: a scripted transport and a manual clock.
        .testTarget(
            name: "APIRuntimeTests",
            dependencies: ["APIRuntime", "APITestSupport", "APIWireFormat", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strictSettings
        ),
        // The runtime on loopback servers, over each HTTP transport (`make test` runs it twice),
        // and the soak, whose mix includes gRPC.
        .testTarget(
            name: "APIWireTests",
            dependencies: [
                "APIRuntime",
                "APIAsyncHTTPClient",
                "APIDiskCache",
                "APIEventStreams",
                "APIGRPC",
                "ExampleClient",
                "APITestSupport",
                "WireTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        // gRPC against a real grpc-swift server on loopback, plain and over TLS.
        .testTarget(
            name: "APIGRPCTests",
            dependencies: [
                "APIRuntime",
                "APIGRPC",
                "ExampleClient",
                "APITestSupport",
                "WireTestSupport",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: strictSettings
        ),
        // The generated clients (example and fixtures) calling loopback servers.
        .testTarget(
            name: "GeneratedClientTests",
            dependencies: [
                "APIAsyncHTTPClient",
                "APIRuntime",
                "APIWireFormat",
                "ExampleClient",
                "ReferenceClient",
                "InitClient",
                "HostileClient",
                "MainActorClient",
                "ShadowingClient",
                "ImportedClient",
                "DocSamples",
                "APIGenKit",
                "APIGenServe",
                "APIGenVerify",
                "APITestSupport",
                "WireTestSupport",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)

// The runtime's tests alone (`APIGEN_TESTS=runtime`), for the ThreadSanitizer build: the
// generator's tests and the generated clients' are single-threaded, and leaving them out keeps
// their dependencies (OpenAPIKit, the Mustache checker, the compile-check fixtures) out of a build
// that instruments every target.
if Context.environment["APIGEN_TESTS"] == "runtime" {
    let runtimeTests: Set = ["APIRuntimeTests", "APIWireTests", "APIGRPCTests"]
    package.targets.removeAll { $0.type == .test && !runtimeTests.contains($0.name) }
}
