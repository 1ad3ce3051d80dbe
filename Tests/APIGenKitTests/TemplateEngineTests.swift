@testable import APIGenKit
import APIManifest
import Foundation
import Mustache
import Testing

/// apigen's own Mustache renderer (Sources/APIGenKit/Rendering/Mustache), against the Mustache
/// spec's cases and, where they agree, swift-mustache, the engine it replaced: custom templates
/// written against swift-mustache must render the same.
@Suite("Template engine", .ownThread)
struct TemplateEngineTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var template: String
        var data: TemplateValue = [:]
        var partials: [String: String] = [:]
        var expected: String
        /// Why swift-mustache renders it differently, where it does.
        var swiftMustacheDiffers: String?

        var testDescription: String { name }
    }

    static let forbidden: TemplateValue = ["forbidden": "& \" < > '"]
    static let letters: TemplateValue = ["list": ["c", "a", "b"]]

    static let cases: [Case] = [
        // Interpolation
        Case(name: "a value", template: "Hello, {{subject}}!", data: ["subject": "world"], expected: "Hello, world!"),
        Case(name: "HTML escaped by default", template: "{{forbidden}}", data: forbidden, expected: "&amp; &quot; &lt; &gt; &#39;"),
        Case(name: "triple mustache", template: "{{{forbidden}}}", data: forbidden, expected: "& \" < > '"),
        Case(name: "ampersand", template: "{{&forbidden}}", data: forbidden, expected: "& \" < > '"),
        Case(name: "CONTENT_TYPE: TEXT", template: "{{% CONTENT_TYPE: TEXT }}\n{{forbidden}}", data: forbidden, expected: "& \" < > '"),
        Case(name: "CONTENT_TYPE: TEXT reaches partials", template: "{{% CONTENT_TYPE: TEXT }}\n{{>p}}", data: forbidden, partials: ["p": "{{forbidden}}"], expected: "& \" < > '",
            swiftMustacheDiffers: "its partials escape HTML whatever their includer's content type"
        ),
        Case(name: "numbers and flags", template: "{{n}} {{flag}}", data: ["n": .int(85), "flag": true], expected: "85 true"),
        Case(name: "a missing value", template: "I ({{cannot}}) be seen!", expected: "I () be seen!"),
        Case(name: "spaces inside tags", template: "|{{ string }}|{{{ string }}}|{{& string }}|", data: ["string": "---"], expected: "|---|---|---|"),
        Case(name: "dotted names", template: "{{person.name}} {{#person}}{{name}}{{/person}}", data: ["person": ["name": "Joe"]], expected: "Joe Joe"),
        Case(name: "a broken chain", template: "[{{a.b.c}}]", data: ["a": ["b": [:]]], expected: "[]"),
        Case(
            name: "a dotted name's first part decides", template: "{{#a}}[{{b.c}}]{{/a}}", data: ["a": ["b": [:]], "b": ["c": "ERROR"]], expected: "[]"
        ),
        // Sections
        Case(name: "true", template: "{{#flag}}yes{{/flag}}", data: ["flag": true], expected: "yes"),
        Case(name: "false", template: "{{#flag}}yes{{/flag}}", data: ["flag": false], expected: ""),
        Case(name: "a list", template: "{{#list}}{{item}}{{/list}}", data: ["list": [["item": "1"], ["item": "2"], ["item": "3"]]], expected: "123"),
        Case(name: "an empty list", template: "{{#list}}yes{{/list}}", data: ["list": []], expected: ""),
        Case(name: "an object", template: "{{#context}}Hi {{name}}.{{/context}}", data: ["context": ["name": "Joe"]], expected: "Hi Joe."),
        Case(name: "a string", template: "{{#text}}<{{.}}>{{/text}}", data: ["text": ""], expected: "<>"),
        Case(name: "names found further up", template: "{{#a}}{{#b}}{{one}}{{two}}{{/b}}{{/a}}", data: ["a": ["one": "1"], "b": ["two": "2"]], expected: "12"),
        Case(name: "the implicit iterator", template: "{{#list}}({{.}}){{/list}}", data: ["list": ["a", "b"]], expected: "(a)(b)"),
        Case(name: "nested lists", template: "{{#rows}}[{{#.}}{{.}}{{/.}}]{{/rows}}", data: ["rows": [["a", "b"], ["c"]]], expected: "[ab][c]"),
        Case(name: "standalone lines", template: "| This Is\n{{#flag}}\n|\n{{/flag}}\n| A Line", data: ["flag": true], expected: "| This Is\n|\n| A Line"),
        Case(name: "indented standalone lines", template: "| This Is\n  {{#flag}}\n|\n  {{/flag}}\n| A Line", data: ["flag": true], expected: "| This Is\n|\n| A Line"),
        Case(name: "standalone with CRLF", template: "|\r\n{{#flag}}\r\n{{/flag}}\r\n|", data: ["flag": true], expected: "|\r\n|"),
        Case(name: "standalone on the first line", template: "  {{#flag}}\n#{{/flag}}\n/", data: ["flag": true], expected: "#\n/"),
        Case(name: "standalone on the last line", template: "#{{#flag}}\n/\n  {{/flag}}", data: ["flag": true], expected: "#\n/\n"),
        Case(name: "not standalone", template: " | {{#flag}} {{! note }}\n {{/flag}} | \n", data: ["flag": true], expected: " |  \n  | \n"),
        // Inverted sections
        Case(name: "inverted false", template: "{{^flag}}no{{/flag}}", data: ["flag": false], expected: "no"),
        Case(name: "inverted true", template: "{{^flag}}no{{/flag}}", data: ["flag": true], expected: ""),
        Case(name: "inverted empty list", template: "{{^list}}none{{/list}}", data: ["list": []], expected: "none"),
        Case(name: "inverted missing", template: "{{^missing}}none{{/missing}}", expected: "none"),
        Case(name: "inverted string", template: "{{^text}}none{{/text}}", data: ["text": ""], expected: ""),
        // Comments and delimiters
        Case(name: "an inline comment", template: "12345{{! Comment Block! }}67890", expected: "1234567890"),
        Case(name: "a standalone multi-line comment", template: "Begin.\n{{!\nSomething's going on here\n}}\nEnd.", expected: "Begin.\nEnd."),
        Case(name: "set delimiters", template: "{{=<% %>=}}(<%text%>)", data: ["text": "Hey!"], expected: "(Hey!)"),
        Case(
            name: "delimiters in sections",
            template: "[\n{{#section}}\n  {{data}}\n  |data|\n{{/section}}\n\n{{= | | =}}\n|#section|\n  {{data}}\n  |data|\n|/section|\n]",
            data: ["section": true, "data": "I got interpolated."],
            expected: "[\n  I got interpolated.\n  |data|\n\n  {{data}}\n  I got interpolated.\n]"
        ),
        // Partials
        Case(name: "a partial", template: "\"{{>text}}\"", partials: ["text": "from partial"], expected: "\"from partial\""),
        Case(name: "a partial's context", template: "\"{{>partial}}\"", data: ["text": "content"], partials: ["partial": "*{{text}}*"], expected: "\"*content*\""),
        Case(name: "an inline partial is not indented", template: "  {{data}}  {{> partial}}\n", data: ["data": "|"], partials: ["partial": ">\n>"], expected: "  |  >\n>\n"),
        Case(
            name: "a standalone partial indents its lines, not a value's",
            template: "\\\n {{>partial}}\n/\n", data: ["content": "<\n->"], partials: ["partial": "|\n{{{content}}}\n|\n"],
            expected: "\\\n |\n <\n->\n |\n/\n",
            swiftMustacheDiffers: "it indents a value's own line breaks too"
        ),
        Case(
            name: "indentation adds up through partials",
            template: "{\n  {{>outer}}\n}", data: ["list": ["a", "b"]],
            partials: ["outer": "[\n  {{>inner}}\n]\n", "inner": "{{#list}}\n{{.}},\n{{/list}}\n"],
            expected: "{\n  [\n    a,\n    b,\n  ]\n}",
            swiftMustacheDiffers: "it does not indent a section's second pass inside a nested partial"
        ),
        // Transforms (swift-mustache's)
        Case(name: "string transforms", template: "{{uppercased(name)}} {{lowercased(name)}} {{reversed(name)}} {{capitalized(text)}}", data: ["name": "Joe", "text": "hello world"], expected: "JOE joe eoJ Hello World"),
        Case(name: "a list's position", template: "{{#list}}{{index()}}{{.}}{{^last()}}, {{/last()}}{{/list}}", data: letters, expected: "0c, 1a, 2b"),
        Case(name: "first() and even()", template: "{{#list}}{{#first()}}^{{/first()}}{{#even()}}{{.}}{{/even()}}{{/list}}", data: letters, expected: "^cb"),
        Case(name: "list transforms", template: "{{count(list)}} {{first(list)}} {{last(list)}} {{#empty(list)}}empty{{/empty(list)}}", data: letters, expected: "3 c b "),
        Case(name: "nested transforms", template: "{{#reversed(sorted(list))}}{{.}}{{/reversed(sorted(list))}}", data: letters, expected: "cba",
            swiftMustacheDiffers: "it renders a section over two transforms as empty"
        ),
        Case(name: "number transforms", template: "{{plusone(n)}} {{minusone(n)}} {{#odd(n)}}odd{{/odd(n)}}{{#equalzero(n)}}zero{{/equalzero(n)}}", data: ["n": .int(7)], expected: "8 6 odd"),
        Case(
            name: "an object's fields in key order", template: "{{#enumerated(fields)}}{{key}}={{value}};{{/enumerated(fields)}}",
            data: ["fields": ["b": "2", "a": "1", "c": "3"]], expected: "a=1;b=2;c=3;",
            swiftMustacheDiffers: "it lists a dictionary's fields in hash order"
        ),
    ]

    @Test("renders as the Mustache spec says", arguments: cases)
    func rendersSpecCase(_ testCase: Case) throws {
        #expect(try render(testCase) == testCase.expected)
    }

    @Test("renders as swift-mustache does, where that follows the spec", arguments: cases.filter { $0.swiftMustacheDiffers == nil })
    func rendersAsSwiftMustache(_ testCase: Case) throws {
        var library = MustacheLibrary()
        library.register(try MustacheTemplate(string: testCase.template), named: "main")
        for (name, text) in testCase.partials { library.register(try MustacheTemplate(string: text), named: name) }
        #expect(library.render(Self.any(testCase.data), withTemplate: "main") == testCase.expected)
    }

    @Test("The built-in templates render every fixture workspace as swift-mustache does")
    func builtinTemplatesAsSwiftMustache() throws {
        var library = MustacheLibrary()
        for (name, text) in BuiltinTemplates.all { library.register(try MustacheTemplate(string: text), named: name) }
        var diagnostics = Diagnostics()
        let templates = try #require(TemplateSet.load(overridesIn: nil, into: &diagnostics))
        var compared = 0
        for workspaceFile in ["Tests/Fixtures/Reference/apis/workspace.yaml", "Tests/Fixtures/Hostile/apis/workspace.yaml"] {
            let loaded = try #require(WorkspaceLoader.load(workspaceFile: workspaceFile, into: &diagnostics))
            let description = try #require(DescriptionBuilder.build(loaded, protos: [:], into: &diagnostics))
            var contexts: [(String, TemplateValue)] = [("workspace", WorkspaceContext(description, workspaceFile: "workspace.yaml").templateValue)]
            contexts += description.models.byManifest.map { ("models", ModelsFileContext(Array($0), access: description.access, manifest: "api.yaml").templateValue) }
            contexts += description.apis.map { api in
                let template = APIContext.template(for: api, access: description.access, manifest: "api.yaml")
                return (template.name, template.context)
            }
            for (template, context) in contexts {
                #expect(templates.render(template, context) == library.render(Self.any(context), withTemplate: template))
                compared += 1
            }
        }
        #expect(diagnostics.errors.isEmpty)
        #expect(compared >= 10)
    }

    // MARK: Errors

    @Test(
        "A template that does not parse says what and where",
        arguments: [
            ("line one\n  {{#items}}\nnever closed", 2, 3, "section 'items' is not closed: no {{/items}}"),
            ("{{/items}}", 1, 1, "'{{/items}}' closes no open section"),
            ("{{#a}}\n{{/b}}", 2, 1, "'{{/b}}' does not close the open section 'a' (line 1)"),
            ("x {{name", 1, 3, "tag is not closed: no '}}' after it"),
            ("{{{name}}", 1, 1, "tag is not closed: no '}}}' after it"),
            ("{{upper(name)}}", 1, 1, "unknown transform 'upper' (known: empty, capitalized, lowercased, uppercased, reversed, first, last, count, sorted, enumerated, equalzero, plusone, minusone, even, odd, index)"),
            ("{{% CONTENT_TYPE: XML }}", 1, 1, "unknown pragma 'CONTENT_TYPE: XML': apigen knows CONTENT_TYPE: TEXT and CONTENT_TYPE: HTML"),
            ("é {{<parent}}{{/parent}}", 1, 3, "template inheritance ('<' tags) is not supported"),
            ("{{>*dynamic}}", 1, 1, "'{{>*dynamic}}' does not name a partial (dynamic names are not supported)"),
            ("{{=<%=}}", 1, 1, "'{{=<%=}}' should set two delimiters, as in {{=<% %>=}}"),
            ("{{}}", 1, 1, "tag has no name"),
            ("{{a b}}", 1, 1, "'a b' is not a name"),
            ("{{a..b}}", 1, 1, "'a..b' is not a name"),
        ]
    )
    func syntaxErrors(template: String, line: Int, column: Int, message: String) {
        #expect(throws: TemplateSyntaxError(message: message, line: line, column: column)) { try Template(template) }
    }

    @Test("A missing partial, or one that includes itself, is a problem at its tag")
    func libraryProblems() throws {
        let library = TemplateLibrary([
            "main": try Template("x\n  {{>missing}}\n{{>loop}}"),
            "loop": try Template("{{#items}}\n{{>again}}\n{{/items}}"),
            "again": try Template("{{>loop}}"),
        ])
        #expect(library.problems == [
            .init(template: "again", line: 1, column: 1, message: "includes itself (again → loop → again), so rendering it would never end"),
            .init(template: "loop", line: 2, column: 1, message: "includes itself (loop → again → loop), so rendering it would never end"),
            .init(template: "main", line: 2, column: 3, message: "includes the partial 'missing', which does not exist"),
        ])
    }

    @Test("Random template text parses or is an error at a real line and column; what parses renders")
    func randomTemplates() {
        let pieces = ["{{", "}}", "{{{", "}}}", "#", "^", "/", "!", ">", "&", "=", "%", "<", "$", "(", ")", ".", " ", "\n", "\r\n",
                      "\t", "a", "list", "b.c", "é", "first()", "uppercased(a)", "{{=<% %>=}}", "<%", "%>", "{{#list}}", "{{/list}}",
                      "{{^a}}", "{{/a}}", "{{>p}}", "  {{>p}}\n", "{{% CONTENT_TYPE: TEXT }}"]
        let partial = try! Template("[{{.}}]\n{{#list}}{{.}}{{/list}}")
        var random = SplitMix64(seed: 7)
        var parsed = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            do {
                let template = try Template(text)
                parsed += 1
                _ = TemplateLibrary(["main": template, "p": partial]).render("main", ["a": "x", "list": ["1", "2"], "b": ["c": true]])
            } catch {
                // By bytes, as the parser counts: "\r\n" is one Character, which splitting on "\n" would miss.
                let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                #expect((1...lines.count).contains(error.line), "\(error) in \(text.debugDescription)")
                guard (1...lines.count).contains(error.line) else { continue }
                #expect(error.column >= 1 && error.column <= lines[error.line - 1].count + 1, "\(error) in \(text.debugDescription)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed > 300)  // The mix exercises rendering too, not only errors.
    }

    @Test("Sections nested past the bound are an error, not a stack overflow")
    func deepNesting() {
        let depth = TemplateParser.maximumNesting + 1
        let text = String(repeating: "{{#a}}", count: depth) + String(repeating: "{{/a}}", count: depth)
        #expect(throws: TemplateSyntaxError(message: "sections nest more than 100 deep", line: 1, column: 1 + 6 * 100)) { try Template(text) }
        let fine = String(repeating: "{{#a}}", count: depth - 1) + "x" + String(repeating: "{{/a}}", count: depth - 1)
        #expect(TemplateLibrary(["main": try! Template(fine)]).render("main", ["a": true]) == "x")
    }

    @Test("Templates that include many others are checked in time linear in their includes")
    func denseIncludes() throws {
        // Each of 40 templates includes every later one: no cycle, but 2^38 paths from the first,
        // which a search that followed every path would never finish.
        let names = (0..<40).map { String(format: "t%02d", $0) }
        var templates: [String: Template] = [:]
        for (index, name) in names.enumerated() {
            templates[name] = try Template(names[(index + 1)...].map { "{{>\($0)}}" }.joined())
        }
        #expect(TemplateLibrary(templates).problems.isEmpty)
        // Closing the loop makes every template part of a cycle, each reported once.
        templates["t39"] = try Template("{{>t00}}")
        let problems = TemplateLibrary(templates).problems
        #expect(problems.count == 40)
        #expect(problems.allSatisfy { $0.message.hasPrefix("includes itself") })
    }

    // MARK: Helpers

    private func render(_ testCase: Case) throws -> String {
        var templates = ["main": try Template(testCase.template)]
        for (name, text) in testCase.partials { templates[name] = try Template(text) }
        let library = TemplateLibrary(templates)
        try #require(library.problems.isEmpty)
        return library.render("main", testCase.data)
    }

    /// The same context as swift-mustache reads it.
    static func any(_ value: TemplateValue) -> Any {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag
        case .int(let number): number
        case .list(let items): items.map(any)
        case .object(let fields): fields.mapValues(any)
        }
    }
}
