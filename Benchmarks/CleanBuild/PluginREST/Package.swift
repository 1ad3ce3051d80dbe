// swift-tools-version:6.2
import PackageDescription

// The REST-only client of the clean-build benchmark generated at build time by apigen's build
// plugin: Tests/Fixtures/Plugin's NotesClient (the same four endpoints as Tests/Fixtures/RESTOnly
// and the peer), alone in a package. In a package that also has a target on the gRPC plugin,
// SwiftPM builds every plugin's tools whatever target is asked for, protoc among them.
let package = Package(
    name: "NotesPluginApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "apigen", path: "../../.."),
    ],
    targets: [
        .target(
            name: "NotesClient",
            dependencies: [.product(name: "APIRuntime", package: "apigen")],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "APIGenPlugin", package: "apigen")]
        ),
    ]
)
