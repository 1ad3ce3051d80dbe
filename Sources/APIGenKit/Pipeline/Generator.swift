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

    /// Where and how to write, in place of what the workspace file says.
    public struct Options: Sendable {
        /// The output folder, in place of the workspace's `output:`.
        public var output: String?
        /// The hand-written sources custom delegates and `swift:` types are looked for in, in place
        /// of the workspace's `sources:`.
        public var sources: String?
        public var layout: OutputLayout

        public init(output: String? = nil, sources: String? = nil, layout: OutputLayout = .filePerAPI) {
            self.output = output
            self.sources = sources
            self.layout = layout
        }
    }

    public struct Report: Sendable {
        public var diagnostics = Diagnostics()
        public var plan = WritePlan()
        /// The output folder, for messages.
        public var outputDirectory: URL?
        /// What the workspace declares, once it has been read and validated.
        public var counts = (manifests: 0, apis: 0, types: 0)
        /// How many files were rendered; the others the render cache vouched for.
        public var renderedCount = 0

        public var succeeded: Bool { !diagnostics.hasErrors }
    }

    /// Runs the pipeline over the workspace whose settings are in `workspaceFile`. Nothing is
    /// written unless every stage succeeded.
    /// `progress` hears (files rendered, files in all) as rendering goes, for a progress line.
    /// The workspace read and validated, for commands that describe it rather than generate
    /// code (`apigen export`); nil after reporting its errors. gRPC protos are compiled for their
    /// descriptors alone.
    public static func describe(workspaceFile: String, into diagnostics: inout Diagnostics) -> (LoadedWorkspace, WorkspaceDescription)? {
        guard let loaded = WorkspaceLoader.load(workspaceFile: workspaceFile, into: &diagnostics) else { return nil }
        let compiler = ProtoCompiler(generatesSources: false, access: loaded.manifest.access?.value ?? .public, recordFolder: loaded.outputDirectory)
        guard let protos = compiler.compile(loaded, into: &diagnostics),
              let description = DescriptionBuilder.build(loaded, protos: protos.catalogs, into: &diagnostics)
        else { return nil }
        return (loaded, description)
    }

    public static func run(workspaceFile: String, mode: Mode, options: Options = Options(), progress: ((Int, Int) -> Void)? = nil) -> Report {
        var report = Report()
        var stages = StageTimer()
        defer { stages.report() }
        guard var loaded = WorkspaceLoader.load(workspaceFile: workspaceFile, into: &report.diagnostics) else { return report }
        loaded.override(output: options.output, sources: options.sources)
        stages.lap("load")
        let compiler = ProtoCompiler(
            generatesSources: mode != .validate, cachesOutput: mode == .write, access: loaded.manifest.access?.value ?? .public,
            recordFolder: options.layout == .filePerAPI ? loaded.outputDirectory : nil
        )
        guard let protos = compiler.compile(loaded, into: &report.diagnostics) else { return report }
        stages.lap("protos")
        guard var description = DescriptionBuilder.build(loaded, protos: protos.catalogs, into: &report.diagnostics) else { return report }
        stages.lap("validate")
        description.protoSources = protos.sources + [protos.record].compactMap { $0 }
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

        let tree = GeneratedTree(root: description.outputDirectory)
        report.outputDirectory = tree.root
        // One writing run at a time per output folder, from reading it to swapping it.
        var lock: WriteLock?
        if mode == .write {
            do {
                lock = try WriteLock(for: tree.root)
            } catch {
                report.diagnostics.error("cannot lock the output folder: \(error.localizedDescription)", at: loaded.manifest.output.location)
                return report
            }
        }
        defer { withExtendedLifetime(lock) {} }
        // A run killed mid-write left its folders beside the tree: put the tree back before
        // reading it, and clear them even when this run has nothing to write.
        if mode == .write { tree.recoverInterruptedRun() }
        // Writing trusts the render cache for files left as it wrote them; `check` trusts nothing,
        // and neither does the file-per-manifest layout, whose files are not the ones rendered.
        let cache = mode == .write && options.layout == .filePerAPI ? RenderCache.load(for: tree.root) : RenderCache()
        var rendered = Renderer(templates: templates, workspaceDirectory: loaded.directory)
            .render(description, progress: progress) { [root = tree.root.path] path, fingerprint in cache.isCurrent(path, fingerprint: fingerprint, in: root) }
        if options.layout == .filePerManifest {
            rendered.files = FilePerManifestLayout(workspaceDirectory: loaded.directory).arrange(
                rendered: rendered.files, protos: protos.sources, origins: protos.origins,
                manifests: loaded.files.map(\.file), into: &report.diagnostics, at: loaded.manifest.output.location
            )
            rendered.fingerprints = [:]
            guard !report.diagnostics.hasErrors else { return report }
        }
        stages.lap("render")
        report.plan = tree.plan(for: rendered.files, current: rendered.current)
        report.renderedCount = rendered.files.count
        stages.lap("compare")
        guard mode == .write else { return report }
        do {
            if !report.plan.isEmpty { try tree.apply(report.plan) }
            stages.lap("write")
            if options.layout == .filePerAPI {
                cache.updated(with: rendered.fingerprints, current: Set(rendered.current), in: tree.root.path)?.save(for: tree.root)
            }
        } catch {
            RenderCache.forget(tree.root)
            report.diagnostics.error("cannot write the generated files: \(error.localizedDescription)", at: loaded.manifest.output.location)
        }
        return report
    }
}

/// Stage durations on stderr when `APIGEN_TIMINGS` is set: where a slow run spends its time.
struct StageTimer {
    private let enabled = ProcessInfo.processInfo.environment["APIGEN_TIMINGS"] != nil
    private let clock = ContinuousClock()
    private var last = ContinuousClock.now
    private var laps: [(String, Duration)] = []

    mutating func lap(_ stage: String) {
        guard enabled else { return }
        let now = clock.now
        laps.append((stage, now - last))
        last = now
    }

    func report() {
        guard enabled else { return }
        let text = laps.map { stage, duration in "\(stage) \(Int(duration / .milliseconds(1))) ms" }
        FileHandle.standardError.write(Data(("apigen timings: " + text.joined(separator: ", ") + "\n").utf8))
    }
}
