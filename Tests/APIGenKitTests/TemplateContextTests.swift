import APIManifest
@testable import APIGenKit
import Foundation
import Testing

/// The typed contexts templates read: turned into template values by one encoder, every key
/// listed in docs/templates.md, every key a built-in template reads one a context has.
@Suite("Template contexts", .ownThread)
struct TemplateContextTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One instance of each context type, from the reference workspace, by type name.
    static func contexts() throws -> [String: any TemplateContext] {
        var diagnostics = Diagnostics()
        let workspaceFile = root.appendingPathComponent("Tests/Fixtures/Reference/apis/workspace.yaml").path
        let loaded = try #require(WorkspaceLoader.load(workspaceFile: workspaceFile, into: &diagnostics))
        let description = try #require(DescriptionBuilder.build(loaded, protos: [:], into: &diagnostics))
        let api = try #require(description.apis.first { !$0.parameters.isEmpty && !$0.headers.isEmpty } ?? description.apis.first { !$0.parameters.isEmpty })
        let models = ModelsFileContext(description.models, access: description.access, manifest: "api.yaml")
        let enumeration = try #require(models.models.first { $0.isEnum == true })
        let apiContext = APIContext(api, access: description.access, manifest: "api.yaml")
        let rest = try #require(description.apis.lazy.compactMap(\.shape.rest).first)
        let rpc = try #require(description.apis.lazy.compactMap(\.shape.rpc).first)
        let grpc = GRPCDescription(
            method: "routeguide.RouteGuide/GetFeature", requestType: "Routeguide_Point", responseType: "Routeguide_Feature",
            clientStreams: false, serverStreams: false, isIdempotent: true
        )
        return [
            "RESTContext": RESTContext(rest),
            "RPCContext": RPCContext(rpc, isJSONRPC: false),
            "GRPCContext": GRPCContext(grpc),
            "WorkspaceContext": WorkspaceContext(description, workspaceFile: "workspace.yaml"),
            "APIContext": apiContext,
            "MemberContext": try #require(apiContext.parameters.first),
            "NamedLiteralContext": NamedLiteralContext(nameLiteral: "\"a\"", valueLiteral: "\"b\""),
            "ModelsFileContext": models,
            "ModelContext": try #require(models.models.first),
            "AlternativeContext": AlternativeContext(.init(caseName: "card", type: SwiftType(spelling: "Card", isOptional: false, needsFoundation: false), discriminatorValue: "card")),
            "EnumCaseContext": try #require(enumeration.cases?.first),
        ]
    }

    /// Every stored property of a context, nil or not: its keys.
    static func keys(of context: any TemplateContext) -> Set<String> {
        Set(Mirror(reflecting: context).children.compactMap(\.label))
    }

    /// docs/templates.md's tables: the keys listed under each heading that names a context type.
    static func documentedKeys() throws -> [String: Set<String>] {
        let page = try String(contentsOf: root.appendingPathComponent("docs/templates.md"), encoding: .utf8)
        var tables: [String: Set<String>] = [:]
        var current: String?
        for line in page.split(separator: "\n") {
            if line.hasPrefix("#") {
                current = line.hasSuffix("Context)") ? line.split(separator: "(").last.map { String($0.dropLast()) } : nil
                if let current { tables[current] = [] }
            } else if let current, line.hasPrefix("| `") {
                let key = line.dropFirst(3).prefix { $0 != "`" }
                tables[current]?.insert(String(key))
            }
        }
        return tables
    }

    @Test("docs/templates.md lists every key of every context, and no other")
    func documented() throws {
        let contexts = try Self.contexts()
        let documented = try Self.documentedKeys()
        #expect(Set(documented.keys) == Set(contexts.keys))
        for (name, context) in contexts {
            let keys = Self.keys(of: context)
            #expect(keys.count > 1, "\(name)")
            #expect(documented[name] == keys, "\(name): not in the docs \(keys.subtracting(documented[name] ?? [])), not in the type \((documented[name] ?? []).subtracting(keys))")
        }
    }

    @Test("Every key a built-in template reads is one a context has")
    func templatesReadKnownKeys() throws {
        let known = try Self.contexts().values.reduce(into: Set<String>()) { $0.formUnion(Self.keys(of: $1)) }
        let tag = /\{\{\{?[#^\/]?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}?\}\}/
        var read = 0
        var unknown: [String] = []
        for (name, text) in BuiltinTemplates.all {
            for match in text.matches(of: tag) {
                read += 1
                if !known.contains(String(match.output.1)) { unknown.append("\(name): \(match.output.1)") }
            }
        }
        #expect(read > 200)
        #expect(unknown.isEmpty, "\(unknown)")
    }

    @Test("An API's template, and each partial it includes, reads only what every API has and its own kind's keys")
    func kindTemplatesReadTheirKind() throws {
        let contexts = try Self.contexts()
        let shared = ["APIContext", "MemberContext", "NamedLiteralContext"].reduce(into: Set<String>()) { $0.formUnion(Self.keys(of: contexts[$1]!)) }
        let tag = /\{\{\{?[#^\/]?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}?\}\}/
        let partial = /\{\{>\s*([A-Za-z_-]+)\s*\}\}/
        let templates = BuiltinTemplates.all
        var misread: [String] = []
        for (template, kind) in [("rest", "RESTContext"), ("rpc", "RPCContext"), ("grpc", "GRPCContext")] {
            let known = shared.union(Self.keys(of: contexts[kind]!))
            let text = try #require(templates[template])
            let included = text.matches(of: partial).map { String($0.output.1) }
            for name in [template] + included {
                for match in (templates[name] ?? "").matches(of: tag) where !known.contains(String(match.output.1)) {
                    misread.append("\(template) → \(name): \(match.output.1)")
                }
            }
        }
        #expect(misread.isEmpty, "\(Set(misread).sorted())")
    }

    struct Sample: TemplateContext {
        struct Item: TemplateContext {
            var name: String
        }

        var text: String
        var flag: Bool
        var count: Int
        var absent: String?
        var present: String?
        var items: [Item]
        var names: [String]
    }

    @Test("A context becomes an object: text, flags, numbers, lists of contexts and of text; a nil optional is no key")
    func encoding() {
        let value = Sample(text: "a", flag: true, count: 3, absent: nil, present: "p", items: [.init(name: "x")], names: ["m", "n"]).templateValue
        #expect(value == .object([
            "text": "a", "flag": true, "count": .int(3), "present": "p",
            "items": [["name": "x"]], "names": ["m", "n"],
        ]))
    }
}
