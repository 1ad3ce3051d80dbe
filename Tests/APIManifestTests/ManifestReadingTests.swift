import APIManifest
import Testing

/// Reading YAML into the manifest model: every form the README documents, with locations.
@Suite("Reading manifests")
struct ManifestReadingTests {
    func parse(_ text: String) -> (APIFileManifest?, [String]) {
        var diagnostics = Diagnostics()
        let file = WorkspaceLoader.parseAPIFile(text, file: "api.yaml", into: &diagnostics)
        return (file, diagnostics.sorted.map(\.description))
    }

    @Test("Short and long field forms, JSON keys, descriptions, and unquoted [T] / [String: T] types")
    func models() throws {
        let (file, errors) = parse("""
            types:
              User:
                description: A user.
                fields:
                  id: Int
                  email: { type: String?, json: email_address, description: Mail. }
                  tags: [String]
                  scores: [String: Double]
                  friends: "[User]?"
            """)
        #expect(errors.isEmpty)
        let user = try #require(file?.types.first)
        #expect(user.name == Located("User", at: SourceLocation(file: "api.yaml", line: 2, column: 3)))
        #expect(user.description?.value == "A user.")
        guard case .model(let fields) = user.shape else {
            Issue.record("expected a model")
            return
        }
        #expect(fields.map(\.name.value) == ["id", "email", "tags", "scores", "friends"])
        #expect(fields.map(\.type.value) == [
            .named("Int"), .optional(.named("String")), .array(.named("String")),
            .dictionary(.named("Double")), .optional(.array(.named("User"))),
        ])
        #expect(fields[1].jsonKey?.value == "email_address")
        #expect(fields[1].description?.value == "Mail.")
        #expect(fields[1].type.location == SourceLocation(file: "api.yaml", line: 6, column: 22))
    }

    @Test("Enums as a list or as a mapping of case names to raw values")
    func enums() throws {
        let (file, errors) = parse("""
            types:
              Role: { enum: [admin, member] }
              Kind:
                enum:
                  physical: PHYSICAL
                  digital: ""
            """)
        #expect(errors.isEmpty)
        let cases = file?.types.map { type -> [String] in
            guard case .enumeration(let declaration) = type.shape else { return [] }
            return declaration.cases.map { "\($0.name.value)=\($0.rawValue.value)" }
        }
        #expect(cases == [["admin=admin", "member=member"], ["physical=PHYSICAL", "digital="]])
    }

    @Test("A REST API with every key")
    func restAPI() throws {
        let (file, errors) = parse("""
            apis:
              CreateUser:
                kind: rest
                description: Creates a user.
                method: POST
                path: /users/{group}
                baseURL: https://api.example.com
                body: form
                parameters:
                  group: Int
                  name: { type: String, in: body, name: full_name, description: Full name. }
                  trace: { type: String?, in: header, name: X-Trace }
                response: User
                headers: { Accept: application/json }
                timeout: 2.5
                frequency: reject
                authenticated: true
            """)
        #expect(errors.isEmpty)
        let api = try #require(file?.apis.first)
        #expect(api.name.value == "CreateUser")
        #expect(api.kind.value == .rest)
        #expect(api.rest?.method.value == .POST)
        #expect(api.rest?.path.value == "/users/{group}")
        #expect(api.rest?.encoding?.value == .form)
        #expect(api.baseURL?.value == "https://api.example.com")
        #expect(api.parameters.map(\.name.value) == ["group", "name", "trace"])
        #expect(api.parameters.map { $0.location?.value } == [nil, .body, .header])
        #expect(api.parameters[1].wireName?.value == "full_name")
        #expect(api.response?.value == .named("User"))
        #expect(api.headers.map { "\($0.name.value): \($0.value.value)" } == ["Accept: application/json"])
        #expect(api.timeout?.value == 2.5)
        #expect(api.frequency?.value == .reject)
        #expect(api.authenticated?.value == true)
    }

    @Test("response: none, or no response key, means no response body")
    func noResponse() {
        let (file, errors) = parse("""
            apis:
              A: { method: DELETE, path: /a, response: none }
              B: { method: DELETE, path: /b }
            """)
        #expect(errors.isEmpty)
        #expect(file?.apis.map { $0.response == nil } == [true, true])
    }

    @Test("Wrong shapes and values are errors at the node, and reading goes on")
    func errors() {
        let (_, errors) = parse("""
            apis:
              A:
                method: get
                path: [/a]
                timeout: soon
                authenticated: yes please
              C:
                kind: grpcc
              B:
                path: /b
                parameters:
                  x: { type: Int, in: cookie }
            types:
              T: { fields: { a: Int }, enum: [x] }
              E: { enum: [x], mutable: true }
              M: { fields: { a: Int }, mutable: maybe }
            """)
        #expect(errors == [
            "api.yaml:3:13: error: unknown HTTP method 'get' (did you mean 'GET'?); expected one of: GET, POST, PUT, PATCH, DELETE, HEAD",
            "api.yaml:4:11: error: path must be a string, found a list",
            "api.yaml:5:14: error: timeout must be a number of seconds, found 'soon'",
            "api.yaml:6:20: error: authenticated must be true or false, found 'yes please'",
            "api.yaml:8:11: error: unknown API kind 'grpcc' (did you mean 'grpc'?); expected one of: rest, jsonrpc, rpc, grpc",
            "api.yaml:9:3: error: API 'B' needs 'method:' (GET, POST, PUT, PATCH, DELETE or HEAD)",
            "api.yaml:12:27: error: unknown parameter location 'cookie'; expected one of: path, query, header, body",
            "api.yaml:14:3: error: type 'T' has 'fields:' and 'enum:'; a type is one of 'fields:' (a model), 'enum:' (an enum), 'oneOf:' (a union), 'swift:' (a Swift type of the app's)",
            "api.yaml:15:28: error: 'mutable:' is for a model ('fields:'); type 'E' is an enum",
            "api.yaml:16:37: error: mutable must be true or false, found 'maybe'",
        ])
    }

    @Test("The workspace file: required keys, defaults, and its errors")
    func workspace() throws {
        var diagnostics = Diagnostics()
        let manifest = WorkspaceLoader.parseWorkspace("""
            module: Client
            prefix: EX
            output: ../Generated
            access: package
            mutableModels: true
            defaults:
              baseURL: https://example.com
              timeout: 30
              headers: { Accept: application/json }
              maxConnectionsPerHost: 8
              frequency: reject
            """, file: "workspace.yaml", into: &diagnostics)
        #expect(diagnostics.all.isEmpty)
        #expect(manifest?.module.value == "Client")
        #expect(manifest?.prefix?.value == "EX")
        #expect(manifest?.mutableModels?.value == true)
        #expect(manifest?.access?.value == .package)
        #expect(manifest?.defaults.maxConnectionsPerHost?.value == 8)
        #expect(manifest?.defaults.frequency?.value == .reject)

        var bad = Diagnostics()
        _ = WorkspaceLoader.parseWorkspace("""
            modul: Client
            access: private
            defaults:
              maxConnectionsPerHost: 0
              frequency: sometimes
            """, file: "workspace.yaml", into: &bad)
        #expect(bad.sorted.map(\.description) == [
            "workspace.yaml:1:1: error: unknown key 'modul' in the workspace file (did you mean 'module'?); expected one of: module, prefix, output, templates, sources, access, mutableModels, defaults",
            "workspace.yaml:1:1: error: the workspace file needs 'module:'",
            "workspace.yaml:1:1: error: the workspace file needs 'output:'",
            "workspace.yaml:2:9: error: unknown access level 'private'; expected one of: public, package, internal",
            "workspace.yaml:4:26: error: maxConnectionsPerHost must be at least 1, found 0",
            "workspace.yaml:5:14: error: unknown frequency policy 'sometimes'; expected one of: allow, reject, coalesce",
        ])
    }
}
