import APIManifest
import APIWireFormat
import Foundation

/// The changes between two versions of a workspace, REST, JSON-RPC and gRPC alike, each at the
/// new version's line: `apigen diff`. Changes that break an app already shipped or a server
/// already deployed are `.breaking`; the rest are `.compatible`.
///
/// An API is known by its manifest name, a model's field by its JSON key, a proto field by its
/// number: a rename is a removal and an addition. Whether a type change breaks depends on the
/// way values flow through it (`TypeUse`): what apps send may widen, what they read may narrow.
public struct WorkspaceDiff {
    let old: WorkspaceDescription
    let new: WorkspaceDescription
    private let oldModels: [String: ModelDescription]
    private let newModels: [String: ModelDescription]
    /// How each model is used, in either version.
    private let uses: [String: TypeUse]
    /// The old version's enums by name: whether one is frozen is what apps already shipped do.
    private let enums: [String: EnumDescription]
    /// Each enum's raw value type, in either version (a type may become an enum, or stop being one).
    private let enumRawTypes: [String: String]
    private(set) var changes: [WorkspaceChange] = []

    /// The changes from `old` to `new`, breaking ones first, each group in the new version's
    /// line order.
    public static func changes(from old: WorkspaceDescription, to new: WorkspaceDescription) -> [WorkspaceChange] {
        var diff = WorkspaceDiff(old: old, new: new)
        diff.compareWorkspaceDefaults()
        diff.compareAPIs()
        diff.compareModels()
        ProtoDiff(old: old, new: new).compare(into: &diff.changes)
        return diff.changes.enumerated().sorted { a, b in
            let (left, right) = (a.element, b.element)
            if left.effect != right.effect { return left.effect == .breaking }
            if left.file != right.file { return left.file < right.file }
            if left.line != right.line { return left.line < right.line }
            return a.offset < b.offset
        }.map(\.element)
    }

    private init(old: WorkspaceDescription, new: WorkspaceDescription) {
        self.old = old
        self.new = new
        oldModels = Dictionary(old.models.map { ($0.manifestName, $0) }, uniquingKeysWith: { first, _ in first })
        newModels = Dictionary(new.models.map { ($0.manifestName, $0) }, uniquingKeysWith: { first, _ in first })
        uses = Self.uses(in: old, oldModels).merging(Self.uses(in: new, newModels)) { $0.union($1) }
        enums = Self.enums(of: oldModels)
        enumRawTypes = Self.enums(of: newModels).merging(enums) { _, old in old }.mapValues(\.rawType)
    }

    private mutating func report(_ effect: WorkspaceChange.Effect, _ subject: String, _ message: String, at location: SourceLocation) {
        changes.append(WorkspaceChange(effect, subject, message, at: location))
    }

    // MARK: APIs

    private mutating func compareAPIs() {
        let newAPIs = Dictionary(new.apis.map { ($0.manifestName, $0) }, uniquingKeysWith: { first, _ in first })
        let oldNames = Set(old.apis.map(\.manifestName))
        for api in old.apis {
            guard let now = newAPIs[api.manifestName] else {
                report(.breaking, api.manifestName, "the API was removed; apps already shipped call it", at: newLocation(ofFileOf: api.declaredAt))
                continue
            }
            compare(api, now)
        }
        for api in new.apis where !oldNames.contains(api.manifestName) {
            report(.compatible, api.manifestName, "a new API", at: api.declaredAt)
        }
    }

    private mutating func compare(_ old: APIDescription, _ new: APIDescription) {
        let name = new.manifestName
        func breaking(_ message: String) { report(.breaking, name, message, at: new.declaredAt) }
        guard old.kind == new.kind else {
            return breaking("it was \(Self.kindName(old.kind)) and is \(Self.kindName(new.kind)) now; apps already shipped call it as before")
        }
        // An API that takes the workspace's base URL is reported with it, once (`compareDefaults`).
        if old.baseURL != nil || new.baseURL != nil {
            let oldBase = old.baseURL ?? self.old.defaults.baseURL
            let newBase = new.baseURL ?? self.new.defaults.baseURL
            if !Self.sameServer(oldBase, newBase) {
                breaking("its base URL changed from \(oldBase ?? "none") to \(newBase ?? "none"); apps already shipped call the old one")
            }
        }
        if let before = old.shape.rest, let now = new.shape.rest {
            if before.method != now.method { breaking("its method changed from \(before.method.rawValue) to \(now.method.rawValue)") }
            if Self.routeShape(before.path) != Self.routeShape(now.path) { breaking("its path changed from \(before.path) to \(now.path)") }
            if before.body != now.body { breaking("its body is sent \(Self.bodyName(now.body)) now, \(Self.bodyName(before.body)) before") }
        }
        if let before = old.shape.rpc, let now = new.shape.rpc {
            if before.method != now.method { breaking("its remote method changed from \(before.method) to \(now.method)") }
            if before.path != now.path { breaking("its endpoint changed from '\(before.path)' to '\(now.path)'") }
            if before.structure != now.structure { breaking("its parameters go \(Self.structureName(now.structure)) now, \(Self.structureName(before.structure)) before") }
            if before.envelope != now.envelope {
                breaking("its envelope's extra members are \(Self.envelopeText(now.envelope)) now, \(Self.envelopeText(before.envelope)) before")
            }
            if before.delegateType != now.delegateType { breaking("its calls are wrapped by \(now.delegateType) now, \(before.delegateType) before") }
            if before.isNotification != now.isNotification {
                breaking(now.isNotification ? "it is a notification now: apps already shipped wait for a reply" : "it is no notification now: apps already shipped send it without an id")
            }
        }
        if let before = old.shape.grpc, let now = new.shape.grpc {
            if before.method != now.method { breaking("its gRPC method changed from \(before.method) to \(now.method)") }
            if before.shape != now.shape { breaking("it was a \(before.shape) call and is a \(now.shape) call now") }
            // Its messages are compared field by field (`ProtoDiff`): their names are not on the wire.
        }
        compareParameters(old, new)
        compareResponse(old, new)
        compareErrorBodies(old.errorResponses, new.errorResponses, subject: name, at: new.declaredAt)
        compareResponseHeaders(old, new)
    }

    /// Parameters are matched as the wire knows them: by position for a JSON-RPC call by
    /// position, header names in any case, path placeholders by name (a placeholder renamed in
    /// its place is the same segment), the rest by name.
    private mutating func compareParameters(_ old: APIDescription, _ new: APIDescription) {
        let name = new.manifestName
        let before = Self.sentParameters(old)
        let now = Self.sentParameters(new)
        var unmatched = Set(now.indices)
        var pairs: [(old: Int, new: Int)] = []
        for (index, parameter) in before.enumerated() {
            if let match = unmatched.sorted().first(where: { Self.wireKey(now[$0], in: new) == Self.wireKey(parameter, in: old) }) {
                unmatched.remove(match)
                pairs.append((index, match))
            }
        }
        // A placeholder or a by-position parameter renamed where it stands: the same slot.
        for (index, parameter) in before.enumerated() where !pairs.contains(where: { $0.old == index }) {
            guard let slot = Self.slot(parameter, in: old),
                  let match = unmatched.sorted().first(where: { Self.slot(now[$0], in: new) == slot })
            else { continue }
            unmatched.remove(match)
            pairs.append((index, match))
            report(.compatible, name, "\(Self.parameterName(parameter)) is '\(now[match].wireName)' now, in its place; its name is not on the wire", at: new.declaredAt)
        }
        for (index, parameter) in before.enumerated() where !pairs.contains(where: { $0.old == index }) {
            report(.breaking, name, "\(Self.parameterName(parameter)) was removed; apps already shipped send it", at: new.declaredAt)
        }
        for (index, match) in pairs {
            let (parameter, current) = (before[index], now[match])
            let subject = Self.parameterName(current)
            if parameter.location != current.location, old.shape.rpc == nil {
                report(.breaking, name, "\(subject) moved from the \(parameter.location.rawValue) to the \(current.location.rawValue)", at: new.declaredAt)
            } else if let slot = Self.slot(parameter, in: old), let now = Self.slot(current, in: new), slot != now {
                let place = old.shape.rpc == nil ? "placeholder \(slot + 1) of the path to placeholder \(now + 1)" : "position \(slot + 1) to position \(now + 1)"
                report(.breaking, name, "\(subject) moved from \(place); apps already shipped send another value there", at: new.declaredAt)
            }
            let use: TypeUse = [.path, .query, .header].contains(current.location) && old.shape.rpc == nil ? .text : .request
            compareType(Self.expression(parameter.type), Self.expression(current.type), use: use, subject: name, what: subject, at: new.declaredAt)
            compareDefaults(parameter.defaultJSON, current.defaultJSON, subject: name, what: "the default of \(subject)", at: new.declaredAt)
            if parameter.dateFormat != current.dateFormat {
                report(.breaking, name, "\(subject) is written as \(current.dateFormat.rawValue) now, \(parameter.dateFormat.rawValue) before", at: new.declaredAt)
            }
        }
        for match in unmatched.sorted() {
            let parameter = now[match]
            if parameter.type.isOptional || parameter.defaultLiteral != nil {
                report(.compatible, name, "a new optional \(Self.parameterName(parameter))", at: new.declaredAt)
            } else {
                report(.breaking, name, "a new \(Self.parameterName(parameter)) is required; apps already shipped do not send it", at: new.declaredAt)
            }
        }
    }

    /// A changed default breaks: apps already shipped send the old one (a parameter) or fill it
    /// in (a field). One added or removed does not: what was built sends or reads a value.
    private mutating func compareDefaults(_ before: String?, _ now: String?, subject: String, what: String, at location: SourceLocation) {
        let (old, new) = (before.flatMap { JSONValue.parse(Data($0.utf8)) }, now.flatMap { JSONValue.parse(Data($0.utf8)) })
        guard old != new else { return }
        switch (before, now) {
        case (let before?, let now?):
            report(.breaking, subject, "\(what) changed from \(before) to \(now): what was built from the old version uses the old one", at: location)
        case (nil, let now?):
            report(.compatible, subject, "\(what) is \(now) now, none before", at: location)
        case (let before?, nil):
            report(.compatible, subject, "\(what) is gone, \(before) before", at: location)
        case (nil, nil):
            break
        }
    }

    private mutating func compareErrorBodies(_ before: [ErrorBodyDescription], _ now: [ErrorBodyDescription], subject: String, at location: SourceLocation) {
        let whose = subject == "defaults" ? "the workspace's" : "its"
        func status(_ body: ErrorBodyDescription) -> String { body.status.map { "\(whose) \($0) replies" } ?? "\(whose) error replies" }
        for body in before {
            guard let current = now.first(where: { $0.status == body.status }) else {
                report(.breaking, subject, "the body of \(status(body)) is no longer \(body.swiftType); apps already shipped read it as one", at: location)
                continue
            }
            if current.swiftType != body.swiftType {
                report(.breaking, subject, "the body of \(status(body)) is \(current.swiftType) now, \(body.swiftType) before; apps already shipped read the old one", at: location)
            }
        }
        for body in now where !before.contains(where: { $0.status == body.status }) {
            report(.compatible, subject, "the body of \(status(body)) is read as \(body.swiftType)", at: location)
        }
    }

    private mutating func compareResponseHeaders(_ old: APIDescription, _ new: APIDescription) {
        for header in old.responseHeaders {
            guard let current = new.responseHeaders.first(where: { $0.wireName.lowercased() == header.wireName.lowercased() }) else {
                report(.breaking, new.manifestName, "reply header '\(header.wireName)' was removed; apps already shipped read it", at: new.declaredAt)
                continue
            }
            compareType(Self.expression(header.type), Self.expression(current.type), use: .response, subject: new.manifestName, what: "reply header '\(current.wireName)'", at: new.declaredAt)
        }
        for header in new.responseHeaders where !old.responseHeaders.contains(where: { $0.wireName.lowercased() == header.wireName.lowercased() }) {
            report(.compatible, new.manifestName, "a new reply header '\(header.wireName)'", at: new.declaredAt)
        }
    }

    private mutating func compareResponse(_ old: APIDescription, _ new: APIDescription) {
        guard old.shape.grpc == nil, new.shape.grpc == nil else { return }
        if old.response.decoding != new.response.decoding {
            // A body once ignored may be anything; a file and bytes are the same bytes.
            let compatible = old.response.decoding == .noContent || Set([old.response.decoding, new.response.decoding]) == [.bytes, .download]
            return report(
                compatible ? .compatible : .breaking, new.manifestName,
                "its reply is read as \(Self.decodingName(new.response.decoding)) now, \(Self.decodingName(old.response.decoding)) before", at: new.declaredAt
            )
        }
        guard let before = old.response.type.expression, let now = new.response.type.expression else { return }
        compareType(before, now, use: .response, subject: new.manifestName, what: "its reply", at: new.declaredAt)
    }

    // MARK: Models

    /// The workspace's defaults, at the workspace file: its base URL and error bodies, once for
    /// every API that takes them.
    private mutating func compareWorkspaceDefaults() {
        let location = SourceLocation(file: new.workspaceFile, line: 1, column: 1)
        if !Self.sameServer(old.defaults.baseURL, new.defaults.baseURL) {
            let change = "\(old.defaults.baseURL ?? "none") to \(new.defaults.baseURL ?? "none")"
            report(.breaking, "defaults", "the workspace's base URL changed from \(change); apps already shipped call the old one", at: location)
        }
        compareErrorBodies(old.defaults.errorResponses, new.defaults.errorResponses, subject: "defaults", at: location)
    }

    private mutating func compareModels() {
        for model in new.models {
            guard let before = oldModels[model.manifestName] else { continue }
            let use = uses[model.manifestName] ?? .both
            switch (before.shape, model.shape) {
            case (.structure(let oldFields), .structure(let newFields)):
                compareFields(oldFields, newFields, of: model, use: use)
            case (.enumeration(let oldEnum), .enumeration(let newEnum)):
                compareCases(oldEnum, newEnum, of: model, use: use)
            case (.union(let oldUnion), .union(let newUnion)):
                compareAlternatives(oldUnion, newUnion, of: model, use: use)
            default:
                report(.breaking, model.manifestName, "it was \(Self.shapeName(before.shape)) and is \(Self.shapeName(model.shape)) now", at: model.declaredAt)
            }
        }
    }

    private mutating func compareFields(_ before: [FieldDescription], _ now: [FieldDescription], of model: ModelDescription, use: TypeUse) {
        for field in before {
            let subject = "\(model.manifestName).\(field.jsonKey)"
            guard let current = now.first(where: { $0.jsonKey == field.jsonKey }) else {
                report(.breaking, subject, "the field was removed; \(use.contains(.response) ? "apps already shipped read it" : "servers already deployed read it")", at: model.declaredAt)
                continue
            }
            let at = current.declaredAt ?? model.declaredAt
            compareType(Self.expression(field.type), Self.expression(current.type), use: use, subject: subject, what: "the field", at: at)
            compareDefaults(field.defaultJSON, current.defaultJSON, subject: subject, what: "its default", at: at)
            if field.dateFormat != current.dateFormat {
                report(.breaking, subject, "it is written as \(current.dateFormat.rawValue) now, \(field.dateFormat.rawValue) before", at: at)
            }
        }
        for field in now where !before.contains(where: { $0.jsonKey == field.jsonKey }) {
            let subject = "\(model.manifestName).\(field.jsonKey)"
            let at = field.declaredAt ?? model.declaredAt
            if use.contains(.request), !field.type.isOptional, field.defaultLiteral == nil {
                report(.breaking, subject, "a new required field; apps already shipped do not send it", at: at)
            } else {
                report(.compatible, subject, "a new \(field.type.isOptional ? "optional " : "")field", at: at)
            }
        }
    }

    private mutating func compareCases(_ before: EnumDescription, _ now: EnumDescription, of model: ModelDescription, use: TypeUse) {
        if before.rawType != now.rawType {
            return report(.breaking, model.manifestName, "its values are \(now.rawType) now, \(before.rawType) before", at: model.declaredAt)
        }
        let newValues = Set(now.cases.map(\.rawValue))
        let oldValues = Set(before.cases.map(\.rawValue))
        for value in before.cases.map(\.rawValue) where !newValues.contains(value) {
            if before.isFrozen || use.contains(.request) {
                let who = use.contains(.request) ? "apps already shipped may send it" : "the enum is frozen, and apps already shipped switch over every value"
                report(.breaking, model.manifestName, "value '\(value)' was removed; \(who)", at: model.declaredAt)
            } else {
                report(.compatible, model.manifestName, "value '\(value)' was removed; apps already shipped read what remains", at: model.declaredAt)
            }
        }
        for value in now.cases.map(\.rawValue) where !oldValues.contains(value) {
            if before.isFrozen, use.contains(.response) {
                report(.breaking, model.manifestName, "value '\(value)' was added to a frozen enum; apps already shipped fail to decode it", at: model.declaredAt)
            } else {
                report(.compatible, model.manifestName, "a new value '\(value)'\(before.isFrozen ? "" : "; apps already shipped read it as .\(before.unknownCase)")", at: model.declaredAt)
            }
        }
    }

    private mutating func compareAlternatives(_ before: UnionDescription, _ now: UnionDescription, of model: ModelDescription, use: TypeUse) {
        if before.discriminator != now.discriminator {
            return report(.breaking, model.manifestName, "its discriminator changed from \(before.discriminator ?? "none") to \(now.discriminator ?? "none")", at: model.declaredAt)
        }
        func key(_ alternative: UnionDescription.Alternative) -> String { alternative.discriminatorValue ?? alternative.type.spelling }
        let newKeys = Set(now.alternatives.map(key))
        let oldKeys = Set(before.alternatives.map(key))
        for alternative in before.alternatives where !newKeys.contains(key(alternative)) {
            report(.breaking, model.manifestName, "alternative '\(key(alternative))' was removed", at: model.declaredAt)
        }
        for alternative in now.alternatives where !oldKeys.contains(key(alternative)) {
            let effect: WorkspaceChange.Effect = use.contains(.response) ? .breaking : .compatible
            let why = effect == .breaking ? "; apps already shipped cannot decode it" : ""
            report(effect, model.manifestName, "a new alternative '\(key(alternative))'\(why)", at: model.declaredAt)
        }
    }

    // MARK: Types

    private mutating func compareType(_ before: TypeExpression, _ now: TypeExpression, use: TypeUse, subject: String, what: String, at location: SourceLocation) {
        var relation = TypeRelation(from: before, to: now, enums: enumRawTypes)
        guard relation != .same else { return }
        // In a path, a query or a header every value is text: any scalar widens to String.
        if use == .text, relation == .other, case .named(let name) = now.unwrapped, name == "String" { relation = .wider }
        var effect: WorkspaceChange.Effect = relation.breaks(use) ? .breaking : .compatible
        // An enum that is not frozen reads a value it does not know as `.unknown`.
        if case .named(let name) = before.unwrapped, let enumeration = enums[name], !enumeration.isFrozen, relation == .wider, !use.contains(.request) {
            effect = .compatible
            return report(effect, subject, "\(what) changed from \(before) to \(now): apps already shipped read a value they do not know as .\(enumeration.unknownCase)", at: location)
        }
        // Optionality alone is said as what it means to the side that breaks.
        if case .optional(let wrapped) = before, wrapped == now {
            let why = use.contains(.request) ? "apps already shipped may leave it out" : "apps already shipped read it as before"
            return report(effect, subject, "\(what) is required now, optional before: \(why)", at: location)
        }
        if case .optional(let wrapped) = now, wrapped == before {
            let why = use.contains(.response) ? "apps already shipped require it" : "servers take what they took"
            return report(effect, subject, "\(what) may be absent now, required before: \(why)", at: location)
        }
        report(effect, subject, "\(what) changed from \(before) to \(now): \(relation.reason(use))", at: location)
    }

    /// The enums of `models` by name.
    private static func enums(of models: [String: ModelDescription]) -> [String: EnumDescription] {
        models.compactMapValues { model in
            if case .enumeration(let enumeration) = model.shape { return enumeration }
            return nil
        }
    }

    /// How each model is used by `workspace`'s APIs: parameters and the models they hold are
    /// sent, replies and error bodies are read.
    static func uses(in workspace: WorkspaceDescription, _ models: [String: ModelDescription]) -> [String: TypeUse] {
        var uses: [String: TypeUse] = [:]
        func mark(_ type: TypeExpression?, _ use: TypeUse) {
            for name in type?.names ?? [] {
                guard let model = models[name], !(uses[name] ?? []).isSuperset(of: use) else { continue }
                uses[name, default: []].formUnion(use)
                switch model.shape {
                case .structure(let fields): for field in fields { mark(expression(field.type), use) }
                case .union(let union): for alternative in union.alternatives { mark(expression(alternative.type), use) }
                case .enumeration: break
                }
            }
        }
        let errorBodies = workspace.defaults.errorResponses + workspace.apis.flatMap(\.errorResponses)
        for model in workspace.models where errorBodies.contains(where: { $0.swiftType == model.swiftName }) {
            mark(.named(model.manifestName), .response)
        }
        for api in workspace.apis {
            for parameter in api.parameters where !parameter.isDownloadDestination { mark(expression(parameter.type), .request) }
            mark(api.response.type.expression, .response)
        }
        return uses
    }

    static func expression(_ type: SwiftType) -> TypeExpression {
        type.expression ?? .named(type.unwrappedSpelling)
    }

    // MARK: Words

    /// Where a removed API's file is in the new version: the same file at the start, or the
    /// workspace file when the file is gone too.
    private func newLocation(ofFileOf old: SourceLocation) -> SourceLocation {
        let oldRoot = URL(fileURLWithPath: self.old.workspaceFile).deletingLastPathComponent().standardizedFileURL.path + "/"
        let newRoot = URL(fileURLWithPath: new.workspaceFile).deletingLastPathComponent().standardizedFileURL.path + "/"
        let file = URL(fileURLWithPath: old.file).standardizedFileURL.path
        if file.hasPrefix(oldRoot) {
            let moved = newRoot + file.dropFirst(oldRoot.count)
            if FileManager.default.fileExists(atPath: moved) { return SourceLocation(file: Self.relative(moved, like: new.workspaceFile), line: 1, column: 1) }
        }
        return SourceLocation(file: new.workspaceFile, line: 1, column: 1)
    }

    /// `path` relative to the working folder when `example` is, as the new version's locations are.
    private static func relative(_ path: String, like example: String) -> String {
        guard !example.hasPrefix("/") else { return path }
        let folder = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
    }

    static func sentParameters(_ api: APIDescription) -> [ParameterDescription] {
        api.parameters.filter { !$0.isDownloadDestination }
    }

    /// What names a parameter: a header's name in any case, its name otherwise (a position's or
    /// a placeholder's name is not on the wire, but says what the value means).
    static func wireKey(_ parameter: ParameterDescription, in api: APIDescription) -> String {
        if api.shape.rpc != nil { return parameter.wireName }
        switch parameter.location {
        case .header: return "header " + parameter.wireName.lowercased()
        case .body where parameter.wireName.isEmpty: return "body"
        default: return parameter.wireName
        }
    }

    /// Where a parameter whose name is not on the wire goes: which placeholder of the path it
    /// fills, or its position in a JSON-RPC call by position; nil for the others.
    static func slot(_ parameter: ParameterDescription, in api: APIDescription) -> Int? {
        if api.shape.rpc?.structure == .byPosition { return sentParameters(api).firstIndex { $0.swiftName == parameter.swiftName } }
        guard parameter.location == .path, api.shape.rpc == nil, let path = api.shape.rest?.path else { return nil }
        return PathTemplate(path).placeholders.firstIndex { $0.name == parameter.wireName }
    }

    static func parameterName(_ parameter: ParameterDescription) -> String {
        parameter.wireName.isEmpty ? "body" : "parameter '\(parameter.wireName)'"
    }

    /// Whether two base URLs reach the same server at the same path.
    static func sameServer(_ old: String?, _ new: String?) -> Bool {
        guard let old, let new else { return old == new }
        guard let before = BaseURL(old), let now = BaseURL(new) else { return old == new }
        return (before.scheme, before.host, before.port, before.path) == (now.scheme, now.host, now.port, now.path)
    }

    static func bodyName(_ body: BodyShape) -> String {
        switch body {
        case .fields(.json): "as a JSON object of its parameters"
        case .fields(.form): "as a form"
        case .fields(.multipart): "as multipart/form-data"
        case .value: "as one JSON value"
        case .bytes(let contentType): "as bytes of \(contentType)"
        }
    }

    static func envelopeText(_ envelope: [EnvelopeField]) -> String {
        envelope.isEmpty ? "none" : envelope.map { "\($0.name): \($0.json)" }.joined(separator: ", ")
    }

    static func decodingName(_ decoding: ResponseDescription.Decoding) -> String {
        switch decoding {
        case .json: "JSON"
        case .text: "text"
        case .noContent: "nothing"
        case .bytes: "bytes"
        case .download: "a file"
        case .events: "an event stream of JSON"
        case .textEvents: "an event stream of text"
        case .jsonLines: "JSON Lines"
        case .protobuf: "a protobuf message"
        case .grpcStream: "a stream of protobuf messages"
        }
    }

    static func routeShape(_ path: String) -> String {
        let trimmed = path.hasPrefix("/") ? path : "/" + path
        return trimmed.replacing(/\{[^}]*\}/, with: "{}")
    }

    static func kindName(_ kind: APIKind) -> String {
        switch kind {
        case .rest: "a REST API"
        case .jsonrpc: "a JSON-RPC method"
        case .rpc: "a custom RPC method"
        case .grpc: "a gRPC method"
        }
    }

    static func structureName(_ structure: ParameterStructure) -> String {
        structure == .byPosition ? "by position" : "by name"
    }

    static func shapeName(_ shape: ModelDescription.Shape) -> String {
        switch shape {
        case .structure: "a model"
        case .enumeration: "an enum"
        case .union: "a union"
        }
    }
}
