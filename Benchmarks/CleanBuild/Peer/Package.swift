// swift-tools-version:6.1
import PackageDescription

// The peer of Tests/Fixtures/RESTOnly for the clean-build benchmark: the same four endpoints,
// generated at build time by swift-openapi-generator's plugin, sent through URLSession.
let package = Package(
    name: "NotesPeer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "NotesPeerClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(name: "notes-peer", dependencies: ["NotesPeerClient"]),
    ]
)
