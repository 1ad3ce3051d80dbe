// swift-tools-version:6.2
import PackageDescription

// An app's package that depends on apigen by path and generates its clients with apigen's
// plugins. CI builds it from clean with no protoc installed (`make plugin`), checks that the
// command plugin leaves its committed code as it is, then calls a loopback server through what the
// plugins generated.
let package = Package(
    name: "PluginApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "apigen", path: "../../.."),
    ],
    targets: [
        // REST, JSON-RPC and gRPC, generated at build time from Sources/ChatClient/apis.
        .target(
            name: "ChatClient",
            dependencies: [
                .product(name: "APIRuntime", package: "apigen"),
                .product(name: "APIGRPC", package: "apigen"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "APIGenGRPCPlugin", package: "apigen")]
        ),
        // REST alone, generated at build time from Sources/NotesClient/apis: this plugin builds
        // no protoc.
        .target(
            name: "NotesClient",
            dependencies: [.product(name: "APIRuntime", package: "apigen")],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "APIGenPlugin", package: "apigen")]
        ),
        // Committed code, written from apis/ by `swift package generate-apis`.
        .target(
            name: "CommittedClient",
            dependencies: [.product(name: "APIRuntime", package: "apigen")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "plugin-smoke",
            dependencies: ["ChatClient", "NotesClient", "CommittedClient", .product(name: "APIRuntime", package: "apigen")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

if Context.environment["APIGEN_FIXTURE_BROKEN"] != nil {
    package.targets.append(.target(
        name: "NoAPIs",
        dependencies: [.product(name: "APIRuntime", package: "apigen")],
        plugins: [.plugin(name: "APIGenPlugin", package: "apigen")]
    ))
}
