import APIManifest
import Foundation

/// Validates a loaded workspace and builds its description. Reports every problem it finds, then
/// returns nil if any was an error: a workspace with errors generates nothing.
public struct DescriptionBuilder {
    var diagnostics = Diagnostics()
    var types = TypeResolver()
    let workspace: LoadedWorkspace
    let prefix: String
    var handWrittenDeclarations: SourceScanner.Declarations?
    /// Manifest names of the models some `responses:` declares as an error body.
    var errorBodies: Set<String> = []
    /// What each API file's protos declare, by the file's path.
    let protos: [String: ProtoCatalog]
    /// The models, once described, that parameters' examples are checked against.
    var examples = JSONConformance(models: [])

    static func build(_ workspace: LoadedWorkspace, protos: [String: ProtoCatalog] = [:], into diagnostics: inout Diagnostics) -> WorkspaceDescription? {
        var builder = DescriptionBuilder(workspace: workspace, protos: protos)
        let description = builder.build()
        diagnostics.append(contentsOf: builder.diagnostics)
        return builder.diagnostics.hasErrors ? nil : description
    }

    private init(workspace: LoadedWorkspace, protos: [String: ProtoCatalog]) {
        self.workspace = workspace
        self.protos = protos
        self.prefix = workspace.manifest.prefix?.value ?? ""
    }

    private mutating func build() -> WorkspaceDescription {
        let manifest = workspace.manifest
        checkIdentifier(manifest.module, what: "module name")
        if let prefix = manifest.prefix, !prefix.value.isEmpty, !SwiftIdentifier.isValid(prefix.value) {
            diagnostics.error("prefix '\(prefix.value)' must be letters, digits and '_', starting with a letter", at: prefix.location)
        }
        if let baseURL = manifest.defaults.baseURL {
            checkBaseURL(baseURL)
            warnIfClearTextDefault(baseURL)
        }
        manifest.defaults.headers.forEach { checkHeader($0) }
        checkOutputFolder()
        checkGRPCSettings()

        declareTypes()
        var models = workspace.files.flatMap { file in file.types.compactMap { describeModel($0, file: file.file) } }
        checkValueCycles()
        examples = JSONConformance(models: models)
        let defaultErrors = describeResponses(manifest.defaults.responses, allowsSuccess: false).errors
        let apis = describeAPIs()
        for index in models.indices where errorBodies.contains(models[index].manifestName) {
            models[index].isErrorBody = true
        }
        // A manifest's types share one file: it is checked once, at the first of them.
        let modelFiles = models.byManifest.map(\.first!).map { first in
            (first.generatedPath, "the types of " + workspace.relativePath(first.sourceFile), first.declaredAt)
        }
        checkFileNames(modelFiles + apis.map { ($0.generatedPath, "'\($0.manifestName)'", $0.declaredAt) })
        for file in workspace.files {
            for type in file.types where !types.referenced.contains(type.name.value) {
                diagnostics.warning("type '\(type.name.value)' is not used by any API or model", at: type.name.location)
            }
        }

        let defaults = manifest.defaults
        return WorkspaceDescription(
            module: manifest.module.value,
            workspaceFile: manifest.file,
            outputDirectory: workspace.outputDirectory,
            templatesDirectory: workspace.templatesDirectory,
            access: manifest.access?.value ?? .public,
            defaults: DefaultsDescription(
                baseURL: defaults.baseURL?.value,
                timeoutSeconds: defaults.timeout?.value,
                headers: headers(defaults.headers),
                maxConnectionsPerHost: defaults.maxConnectionsPerHost?.value,
                frequency: defaults.frequency?.value,
                retry: defaults.retry.flatMap { describeRetry($0, forNonIdempotent: nil) },
                rateLimit: defaults.rateLimit.flatMap { describeRateLimit($0) },
                errorResponses: defaultErrors,
                cache: defaults.cache.map(describeCache)
            ),
            models: models,
            apis: apis,
            protoShapes: protos.keys.sorted().reduce(ProtoShapes()) { $0.merging(protos[$1]!.shapes) }
        )
    }
}
