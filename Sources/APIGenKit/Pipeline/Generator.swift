import APIManifest
import Foundation

/// The whole pipeline: YAML → manifest model → validated description → templates → files.
public enum Generator {
    public enum Mode: Sendable {
        /// Write changed files and remove stale ones.
        case write
        /// Write nothing; report what `write` would change.
        case check
        /// Validate only (`apigen lint`): no rendering, no plan, and gRPC protos compiled for their
        /// descriptors alone, so protoc-gen-swift is not needed.
        case validate
    }

    public struct Report: Sendable {
        public var diagnostics = Diagnostics()
        public var plan = WritePlan()
        /// The output folder, for messages.
        public var outputDirectory: URL?
        /// What the workspace declares, once it has been read and validated.
        public var counts = (manifests: 0, apis: 0, types: 0)

        public var succeeded: Bool { !diagnostics.hasErrors }
    }

    /// Runs the pipeline over the workspace whose settings are in `workspaceFile`. Nothing is
    /// written unless every stage succeeded.
    /// `progress` hears (files rendered, files in all) as rendering goes, for a progress line.
    public static func run(workspaceFile: String, mode: Mode, progress: ((Int, Int) -> Void)? = nil) -> Report {
        var report = Report()
        guard let loaded = WorkspaceLoader.load(workspaceFile: workspaceFile, into: &report.diagnostics) else { return report }
        guard let protos = ProtoCompiler(generatesSources: mode != .validate).compile(loaded, into: &report.diagnostics) else { return report }
        guard var description = DescriptionBuilder.build(loaded, protos: protos.catalogs, into: &report.diagnostics) else { return report }
        description.protoSources = protos.sources
        report.counts = (loaded.files.count + 1, description.apis.count, description.models.count)
        if let folder = description.templatesDirectory, let declared = loaded.manifest.templates {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
                report.diagnostics.error("templates folder '\(declared.value)' does not exist", at: declared.location)
                return report
            }
        }
        guard let templates = TemplateSet.load(overridesIn: description.templatesDirectory, into: &report.diagnostics) else { return report }
        guard !report.diagnostics.hasErrors, mode != .validate else { return report }

        let files = Renderer(templates: templates, workspaceDirectory: loaded.directory).render(description, progress: progress)
        let tree = GeneratedTree(root: description.outputDirectory)
        report.outputDirectory = tree.root
        report.plan = tree.plan(for: files)
        if mode == .write, !report.plan.isEmpty {
            do {
                try tree.apply(report.plan)
            } catch {
                report.diagnostics.error("cannot write the generated files: \(error.localizedDescription)", at: loaded.manifest.output.location)
            }
        }
        return report
    }
}
