import APIManifest
import Foundation

/// Validates a loaded workspace and builds its description. Reports every problem it finds, then
/// returns nil if any was an error: a workspace with errors generates nothing.
public struct DescriptionBuilder {
    private var diagnostics = Diagnostics()
    private var types = TypeResolver()
    private let workspace: LoadedWorkspace
    private let prefix: String
    private var knownDelegates: Set<String>?

    public static func build(_ workspace: LoadedWorkspace, into diagnostics: inout Diagnostics) -> WorkspaceDescription? {
        var builder = DescriptionBuilder(workspace: workspace)
        let description = builder.build()
        diagnostics.append(contentsOf: builder.diagnostics)
        return builder.diagnostics.hasErrors ? nil : description
    }

    private init(workspace: LoadedWorkspace) {
        self.workspace = workspace
        self.prefix = workspace.manifest.prefix?.value ?? ""
    }

    private mutating func build() -> WorkspaceDescription {
        let manifest = workspace.manifest
        checkIdentifier(manifest.module, what: "module name")
        if let prefix = manifest.prefix, !prefix.value.isEmpty, !SwiftIdentifier.isValid(prefix.value) {
            diagnostics.error("prefix '\(prefix.value)' must be letters, digits and '_', starting with a letter", at: prefix.location)
        }
        if let baseURL = manifest.defaults.baseURL { checkBaseURL(baseURL) }
        manifest.defaults.headers.forEach { checkHeader($0) }
        checkOutputFolder()

        declareTypes()
        let models = workspace.files.flatMap { file in file.types.compactMap { describeModel($0, file: file.file) } }
        checkValueCycles()
        let apis = describeAPIs()
        checkFileNames(
            models.map { (GeneratedPaths.model($0.swiftName), $0.manifestName, $0.declaredAt) }
                + apis.map { (GeneratedPaths.api($0.className), $0.manifestName, $0.declaredAt) }
        )
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
            defaults: DefaultsDescription(
                baseURL: defaults.baseURL?.value,
                timeoutSeconds: defaults.timeout?.value,
                headers: headers(defaults.headers),
                maxConnectionsPerHost: defaults.maxConnectionsPerHost?.value,
                frequency: defaults.frequency?.value,
                retry: defaults.retry.flatMap { describeRetry($0, forNonIdempotent: nil) },
                rateLimit: defaults.rateLimit.flatMap { describeRateLimit($0) }
            ),
            models: models,
            apis: apis
        )
    }

    // MARK: Models

    private mutating func declareTypes() {
        var firstDeclaration: [String: SourceLocation] = [:]
        var swiftNames = SwiftNames(kind: "type")
        for file in workspace.files {
            for type in file.types {
                let name = type.name
                if let first = firstDeclaration[name.value] {
                    diagnostics.error("type '\(name.value)' is declared twice; first declared at \(first)", at: name.location)
                    continue
                }
                firstDeclaration[name.value] = name.location
                let swiftName = prefix + SwiftIdentifier.make(from: name.value, capitalized: true)
                guard checkTypeName(swiftName, at: name.location),
                      swiftNames.claim(swiftName, for: name, into: &diagnostics)
                else { continue }
                if case .enumeration = type.shape {
                    types.declared[name.value] = (swiftName, .enumeration)
                } else {
                    types.declared[name.value] = (swiftName, .model)
                }
            }
        }
    }

    private mutating func describeModel(_ type: TypeDeclaration, file: String) -> ModelDescription? {
        guard let swiftName = types.declared[type.name.value]?.swiftName else { return nil }
        let shape: ModelDescription.Shape
        switch type.shape {
        case .model(let fields):
            var swiftNames = SwiftNames(kind: "field")
            var seenKeys: [String: SourceLocation] = [:]
            let described = fields.compactMap { field -> FieldDescription? in
                let swiftName = SwiftIdentifier.make(from: field.name.value, capitalized: false)
                let claimed = swiftNames.claim(swiftName, for: field.name, into: &diagnostics)
                let jsonKey = field.jsonKey?.value ?? field.name.value
                let keyLocation = (field.jsonKey ?? field.name).location
                if claimed, let first = seenKeys.updateValue(keyLocation, forKey: jsonKey) {
                    diagnostics.error("JSON key '\(jsonKey)' is used by two fields; first used at \(first)", at: keyLocation)
                }
                guard let resolved = types.resolve(field.type, into: &diagnostics) else { return nil }
                return FieldDescription(
                    swiftName: SwiftIdentifier.escaped(swiftName), jsonKey: jsonKey,
                    type: resolved, docLines: SwiftLiteral.docLines(field.description?.value)
                )
            }
            shape = .structure(fields: described)
        case .enumeration(let cases):
            var swiftNames = SwiftNames(kind: "enum case")
            var seenValues: [String: SourceLocation] = [:]
            let described = cases.compactMap { enumCase -> EnumCaseDescription? in
                // The list form names cases after their raw values; make those Swift-shaped.
                let written = enumCase.name.value
                let name = SwiftIdentifier.isValid(written) ? written
                    : enumCase.name == enumCase.rawValue ? Self.caseName(fromRawValue: written)
                    : SwiftIdentifier.make(from: written, capitalized: false)
                guard swiftNames.claim(name, for: enumCase.name, into: &diagnostics) else { return nil }
                if let first = seenValues.updateValue(enumCase.rawValue.location, forKey: enumCase.rawValue.value), first != enumCase.rawValue.location {
                    diagnostics.error("raw value '\(enumCase.rawValue.value)' is used by two cases; first used at \(first)", at: enumCase.rawValue.location)
                }
                return EnumCaseDescription(swiftName: SwiftIdentifier.escaped(name), rawValue: enumCase.rawValue.value)
            }
            shape = .enumeration(cases: described)
        }
        return ModelDescription(
            manifestName: type.name.value, declaredAt: type.name.location, swiftName: swiftName, sourceFile: file,
            docLines: SwiftLiteral.docLines(type.description?.value), shape: shape
        )
    }

    /// A struct cannot contain itself, not even through an optional: `parent: Item?` inside `Item`
    /// would have infinite size. A list or a dictionary breaks the cycle (`children: [Item]`).
    private mutating func checkValueCycles() {
        var edges: [String: [(target: String, field: FieldDeclaration)]] = [:]
        for file in workspace.files {
            for type in file.types {
                guard case .model(let fields) = type.shape else { continue }
                for field in fields {
                    guard case .named(let target) = field.type.value.unwrapped, types.kind(of: target) == .model else { continue }
                    edges[type.name.value, default: []].append((target, field))
                }
            }
        }
        var reported: Set<Set<String>> = []
        for start in edges.keys.sorted() {
            // Depth-first search for a path of stored fields leading back to `start`.
            var stack: [(model: String, path: [FieldDeclaration])] = [(start, [])]
            var visited: Set<String> = []
            while let (model, path) = stack.popLast() {
                for edge in edges[model] ?? [] {
                    let newPath = path + [edge.field]
                    if edge.target == start {
                        let first = newPath[0]
                        // Each cycle is reported once, from the first of its types in name order.
                        let members = Set(newPath.map(\.name.location.description))
                        guard reported.insert(members).inserted else { continue }
                        let chain = newPath.map(\.name.value).joined(separator: ".")
                        diagnostics.error(
                            "type '\(start)' contains itself through '\(chain)'; a Swift struct cannot. Use a list ('[\(edge.target)]') to break the cycle",
                            at: first.name.location
                        )
                    } else if visited.insert(edge.target).inserted {
                        stack.append((edge.target, newPath))
                    }
                }
            }
        }
    }

    /// `super-user` → `superUser`, `SOLD_OUT` → `soldOut`, `2fa` → `_2fa`.
    static func caseName(fromRawValue raw: String) -> String {
        let words = raw.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map { word in
            word.allSatisfy { $0.isUppercase || $0.isNumber } ? word.lowercased() : String(word)
        }
        var name = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if let first = name.first, first.isNumber { name = "_" + name }
        return name.isEmpty ? "_" : name
    }

    // MARK: APIs

    private mutating func describeAPIs() -> [APIDescription] {
        var firstDeclaration: [String: SourceLocation] = [:]
        var classNames = SwiftNames(kind: "API")
        var described: [APIDescription] = []
        for file in workspace.files {
            for api in file.apis {
                if let first = firstDeclaration[api.name.value] {
                    diagnostics.error("API '\(api.name.value)' is declared twice; first declared at \(first)", at: api.name.location)
                    continue
                }
                firstDeclaration[api.name.value] = api.name.location
                let base = SwiftIdentifier.make(from: api.name.value, capitalized: true)
                let className = prefix + base + (base.hasSuffix("API") ? "" : "API")
                guard classNames.claim(className, for: api.name, into: &diagnostics) else { continue }
                if let description = describeAPI(api, className: className, file: file.file) { described.append(description) }
            }
        }
        return described
    }

    private mutating func describeAPI(_ api: APIDeclaration, className: String, file: String) -> APIDescription? {
        let nameIsValid = checkTypeName(className, at: api.name.location)
        if let model = types.declared.first(where: { $0.value.swiftName == className }) {
            diagnostics.error("API '\(api.name.value)' would generate class '\(className)', which type '\(model.key)' already names", at: api.name.location)
        }
        if let baseURL = api.baseURL { checkBaseURL(baseURL) }
        api.headers.forEach { checkHeader($0) }

        let response: ResponseDescription?
        if let declared = api.response {
            response = types.resolve(declared, into: &diagnostics).map { type in
                ResponseDescription(type: type, decoding: declared.value == .named("String") ? .text : .json)
            }
        } else {
            response = ResponseDescription(type: SwiftType(spelling: "NoContent", isOptional: false, needsFoundation: false), decoding: .noContent)
        }

        var rest: RESTDescription?
        var rpc: RPCDescription?
        var parameters: [ParameterDescription] = []
        var baseURL = api.baseURL?.value
        switch api.kind.value {
        case .rest:
            guard let endpoint = api.rest else { return nil }
            if let listed = api.parametersAreListed, listed.value {
                diagnostics.error("REST parameters are a mapping of names to types, not a list", at: listed.location)
            }
            let described = describeREST(api, endpoint)
            rest = described.rest
            parameters = described.parameters
        case .jsonrpc, .rpc:
            guard let endpoint = api.rpc else { return nil }
            let described = describeRPC(api, endpoint)
            rpc = described.rpc
            parameters = described.parameters
            baseURL = described.absoluteURL ?? baseURL
        }
        // Sending a POST, a PATCH or an RPC call twice may repeat its effect: retrying one needs
        // the manifest to say the server makes it safe.
        let nonIdempotent: String? = switch api.kind.value {
        case .rest: rest.map(\.method).flatMap { [.POST, .PATCH].contains($0) ? $0.rawValue : nil }
        case .jsonrpc, .rpc: "an RPC call"
        }
        let retry = api.retry.flatMap { describeRetry($0, forNonIdempotent: nonIdempotent) }
        let rateLimit = api.rateLimit.flatMap { describeRateLimit($0) }
        api.significantHeaders.forEach { checkHeaderName($0) }
        let sample = api.sample.flatMap { describeSample($0) }
        guard nameIsValid, let response else { return nil }
        return APIDescription(
            manifestName: api.name.value, declaredAt: api.name.location, className: className, sourceFile: file,
            docLines: SwiftLiteral.docLines(api.description?.value), kind: api.kind.value,
            parameters: parameters, response: response, headers: headers(api.headers),
            timeoutSeconds: api.timeout?.value, frequency: api.frequency?.value,
            retry: retry, rateLimit: rateLimit,
            significantHeaders: api.significantHeaders.map(\.value), tags: api.tags.map(\.value),
            skippedInterceptors: api.skipInterceptors.map(\.value), sample: sample,
            baseURL: baseURL, rest: rest, rpc: rpc
        )
    }

    private mutating func describeREST(_ api: APIDeclaration, _ endpoint: RESTEndpoint) -> (rest: RESTDescription?, parameters: [ParameterDescription]) {
        let method = endpoint.method.value
        var template: PathTemplate?
        do {
            template = try PathTemplate(endpoint.path.value)
        } catch {
            diagnostics.error("invalid path '\(endpoint.path.value)': \(error.message)", at: columnShifted(endpoint.path, by: error.offset))
        }
        let placeholders = Set(template?.placeholders.map(\.name) ?? [])
        let encoding = endpoint.encoding?.value ?? .json

        var swiftNames = SwiftNames(kind: "parameter")
        var parameters: [ParameterDescription] = []
        for parameter in api.parameters {
            let swiftName = SwiftIdentifier.make(from: parameter.name.value, capitalized: false)
            swiftNames.claim(swiftName, for: parameter.name, into: &diagnostics)
            let location = parameter.location?.value
                ?? (placeholders.contains(parameter.name.value) ? .path : method.hasBody ? .body : .query)
            checkParameterPlacement(parameter, location: location, placeholders: placeholders, encoding: encoding, method: method)
            guard let type = types.resolve(parameter.type, into: &diagnostics) else { continue }
            parameters.append(ParameterDescription(
                swiftName: SwiftIdentifier.escaped(swiftName),
                wireName: parameter.wireName?.value ?? parameter.name.value,
                type: type, location: location,
                docLines: SwiftLiteral.docLines(parameter.description?.value)
            ))
        }
        let declared = Set(api.parameters.map(\.name.value))
        for placeholder in template?.placeholders ?? [] where !declared.contains(placeholder.name) {
            let hint = Suggestion.hint(for: placeholder.name, in: declared.sorted())
            diagnostics.error(
                "path parameter '{\(placeholder.name)}' is not declared under 'parameters:'\(hint)",
                at: columnShifted(endpoint.path, by: placeholder.offset)
            )
        }
        if endpoint.encoding != nil, !parameters.contains(where: { $0.location == .body }) {
            diagnostics.warning("'body: \(encoding.rawValue)' has no effect: the API has no body parameters", at: endpoint.encoding!.location)
        }
        return (RESTDescription(method: method, path: endpoint.path.value, bodyEncoding: encoding), parameters)
    }

    private mutating func describeRPC(_ api: APIDeclaration, _ endpoint: RPCEndpoint) -> (rpc: RPCDescription?, parameters: [ParameterDescription], absoluteURL: String?) {
        var path = endpoint.url.value
        var absoluteURL: String?
        if path.hasPrefix("/") {
            if path.contains("?") || path.contains("#") || path.contains("{") {
                diagnostics.error("the RPC url '\(path)' cannot contain '?', '#' or placeholders", at: endpoint.url.location)
            }
        } else {
            // An absolute endpoint stands in for the base URL; the path is then empty.
            checkBaseURL(endpoint.url)
            absoluteURL = path
            path = ""
        }
        if endpoint.method.value.isEmpty {
            diagnostics.error("the remote method name cannot be empty", at: endpoint.method.location)
        }

        let structure = endpoint.structure?.value ?? .byName
        let listed = api.parametersAreListed
        if structure == .byPosition, let listed, !listed.value, !api.parameters.isEmpty {
            diagnostics.error("by-position parameters must be a list, so their order is explicit: write them as '- name: Type' items", at: listed.location)
        }
        if structure == .byName, let listed, listed.value {
            diagnostics.error("a parameter list means by-position parameters: add 'params: byPosition', or write the parameters as a mapping", at: listed.location)
        }
        let isNotification = endpoint.isNotification?.value ?? false
        if isNotification, let response = api.response {
            diagnostics.error("a notification gets no reply: remove 'response:' (or set 'notification: false')", at: response.location)
        }

        var envelope: [EnvelopeField] = []
        var seenFields: Set<String> = []
        for field in endpoint.envelope {
            if api.kind.value == .jsonrpc, ["jsonrpc", "method", "params", "id"].contains(field.name.value) {
                diagnostics.error("'\(field.name.value)' is a JSON-RPC member apigen writes itself; it cannot be an extra envelope field", at: field.name.location)
            } else if !seenFields.insert(field.name.value).inserted {
                diagnostics.error("envelope field '\(field.name.value)' is declared twice", at: field.name.location)
            }
            envelope.append(EnvelopeField(name: field.name.value, json: field.json.value))
        }

        var delegateType = "JSONRPC"
        if api.kind.value == .rpc, let delegate = endpoint.delegate {
            delegateType = delegate.value
            let known = delegateTypes()
            if !known.contains(delegate.value) {
                let folder = workspace.sourcesDirectory.path
                diagnostics.error(
                    "unknown delegate type '\(delegate.value)'\(Suggestion.hint(for: delegate.value, in: known.sorted())): no type conforming to RPCDelegate is declared under \(folder)",
                    at: delegate.location
                )
            }
        }

        var swiftNames = SwiftNames(kind: "parameter")
        var parameters: [ParameterDescription] = []
        for parameter in api.parameters {
            let swiftName = SwiftIdentifier.make(from: parameter.name.value, capitalized: false)
            swiftNames.claim(swiftName, for: parameter.name, into: &diagnostics)
            if let location = parameter.location {
                diagnostics.error("RPC parameters travel in the envelope; remove 'in: \(location.value.rawValue)'", at: location.location)
            }
            if structure == .byPosition, let wireName = parameter.wireName {
                diagnostics.error("by-position parameters have no name on the wire; remove 'name:'", at: wireName.location)
            }
            guard let type = types.resolve(parameter.type, into: &diagnostics) else { continue }
            parameters.append(ParameterDescription(
                swiftName: SwiftIdentifier.escaped(swiftName),
                wireName: parameter.wireName?.value ?? parameter.name.value,
                type: type, location: .body,
                docLines: SwiftLiteral.docLines(parameter.description?.value)
            ))
        }
        let rpc = RPCDescription(
            path: path, method: endpoint.method.value, structure: structure,
            isNotification: isNotification, envelope: envelope, delegateType: delegateType
        )
        return (rpc, parameters, absoluteURL)
    }

    /// The custom delegate types declared in the module's hand-written sources, read once.
    private mutating func delegateTypes() -> Set<String> {
        if let knownDelegates { return knownDelegates }
        let found = DelegateScanner.delegateTypes(in: workspace.sourcesDirectory, excluding: workspace.outputDirectory)
        knownDelegates = found
        return found
    }

    private mutating func checkParameterPlacement(
        _ parameter: ParameterDeclaration, location: ParameterLocation,
        placeholders: Set<String>, encoding: BodyEncoding, method: HTTPMethodName
    ) {
        let name = parameter.name.value
        let type = parameter.type.value
        let at = parameter.location?.location ?? parameter.name.location
        switch location {
        case .path:
            if !placeholders.contains(name) {
                diagnostics.error("parameter '\(name)' is 'in: path' but the path has no '{\(name)}'", at: at)
            }
            if type.isOptional {
                diagnostics.error("path parameter '\(name)' cannot be optional: the path needs a value", at: parameter.type.location)
            } else if !types.isTextual(type, allowArrays: false) {
                diagnostics.error("path parameter '\(name)' must be a scalar or an enum, found '\(type)'", at: parameter.type.location)
            }
        case .query, .header:
            if location == .header { checkHeaderName(parameter.wireName ?? parameter.name) }
            if placeholders.contains(name) {
                diagnostics.error("parameter '\(name)' is 'in: \(location.rawValue)' but the path names '{\(name)}'", at: at)
            }
            if !types.isTextual(type, allowArrays: location == .query) {
                let allowed = location == .query ? "a scalar, an enum or a list of those" : "a scalar or an enum"
                diagnostics.error("\(location.rawValue) parameter '\(name)' must be \(allowed), found '\(type)'", at: parameter.type.location)
            }
        case .body:
            if placeholders.contains(name) {
                diagnostics.error("parameter '\(name)' is 'in: body' but the path names '{\(name)}'", at: at)
            }
            if encoding == .form, !types.isTextual(type, allowArrays: true) {
                diagnostics.error("form field '\(name)' must be a scalar, an enum or a list of those, found '\(type)'; use 'body: json' for models", at: parameter.type.location)
            }
            if method == .GET || method == .HEAD {
                diagnostics.warning("\(method.rawValue) request with a body parameter '\(name)': many servers and proxies drop such bodies", at: at)
            }
        }
    }

    // MARK: Call policies

    private mutating func describeRetry(_ retry: RetryDeclaration, forNonIdempotent method: String?) -> RetryDescription? {
        if retry.isNone { return RetryDescription(isNone: true, nonIdempotent: false) }
        var valid = true
        if let attempts = retry.attempts, !(1...RetryPolicySettings.attemptLimit).contains(attempts.value) {
            diagnostics.error("attempts must be between 1 and \(RetryPolicySettings.attemptLimit), found \(attempts.value)", at: attempts.location)
            valid = false
        }
        for delay in [retry.delay, retry.maxDelay].compactMap({ $0 }) where delay.value < 0 {
            diagnostics.error("a retry delay cannot be negative, found \(delay.value)", at: delay.location)
            valid = false
        }
        for status in retry.statuses where !(100...599).contains(status.value) {
            diagnostics.error("\(status.value) is not an HTTP status code", at: status.location)
            valid = false
        }
        let nonIdempotent = retry.nonIdempotent?.value ?? false
        if let method, (retry.attempts?.value ?? RetryPolicySettings.defaultAttempts) > 1, !nonIdempotent {
            diagnostics.error(
                "\(method) is not idempotent: sending it again could repeat its effect. Add 'nonIdempotent: true' to 'retry:' if the server makes repeats safe",
                at: retry.location
            )
            valid = false
        }
        guard valid else { return nil }
        return RetryDescription(
            isNone: false, attempts: retry.attempts?.value ?? RetryPolicySettings.defaultAttempts,
            delaySeconds: retry.delay?.value, maxDelaySeconds: retry.maxDelay?.value,
            statuses: retry.statuses.isEmpty ? nil : retry.statuses.map(\.value), nonIdempotent: nonIdempotent
        )
    }

    private mutating func describeRateLimit(_ limit: RateLimitDeclaration) -> RateLimitDescription? {
        var valid = true
        if limit.calls.value < 1 {
            diagnostics.error("calls must be at least 1, found \(limit.calls.value)", at: limit.calls.location)
            valid = false
        }
        if limit.per.value <= 0 {
            diagnostics.error("per must be a positive number of seconds, found \(limit.per.value)", at: limit.per.location)
            valid = false
        }
        guard valid else { return nil }
        return RateLimitDescription(calls: limit.calls.value, perSeconds: limit.per.value, scope: limit.scope?.value, behavior: limit.behavior?.value)
    }

    private mutating func describeSample(_ sample: SampleDeclaration) -> SampleDescription? {
        if let status = sample.status, !(100...599).contains(status.value) {
            diagnostics.error("\(status.value) is not an HTTP status code", at: status.location)
            return nil
        }
        if let delay = sample.delay, delay.value < 0 {
            diagnostics.error("a sample delay cannot be negative, found \(delay.value)", at: delay.location)
            return nil
        }
        return SampleDescription(status: sample.status?.value ?? 200, json: sample.body?.value, delaySeconds: sample.delay?.value)
    }

    // MARK: Checks shared by every kind

    @discardableResult
    private mutating func checkTypeName(_ swiftName: String, at location: SourceLocation) -> Bool {
        if SwiftIdentifier.reservedTypeNames.contains(swiftName) || SwiftIdentifier.keywords.contains(swiftName) {
            diagnostics.error("'\(swiftName)' is a name generated code relies on; choose another", at: location)
            return false
        }
        return true
    }

    @discardableResult
    private mutating func checkIdentifier(_ name: Located<String>, what: String) -> Bool {
        guard SwiftIdentifier.isValid(name.value) else {
            diagnostics.error("\(what) '\(name.value)' is not a valid Swift identifier: use letters, digits and '_', starting with a letter", at: name.location)
            return false
        }
        return true
    }

    private mutating func checkBaseURL(_ baseURL: Located<String>) {
        guard let url = URL(string: baseURL.value), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil, url.query == nil
        else {
            diagnostics.error("baseURL '\(baseURL.value)' must be an absolute http or https URL without a query", at: baseURL.location)
            return
        }
    }

    /// apigen owns its output folder: it replaces the whole folder on every run. The folder must
    /// therefore be one of its own, never the workspace's folder or one holding it.
    private mutating func checkOutputFolder() {
        let output = workspace.outputDirectory.resolvingSymlinksInPath().path
        let manifests = workspace.directory.resolvingSymlinksInPath().path
        if output == "/" || manifests == output || manifests.hasPrefix(output.hasSuffix("/") ? output : output + "/") {
            diagnostics.error(
                "output '\(workspace.manifest.output.value)' holds the manifests themselves; apigen owns its output folder, so give it one of its own (such as ../Sources/Client/Generated)",
                at: workspace.manifest.output.location
            )
        }
    }

    /// Header names are HTTP tokens; values may not hold line breaks, which would split the header.
    private mutating func checkHeader(_ header: Header) {
        checkHeaderName(header.name)
        if header.value.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            diagnostics.error("the value of header '\(header.name.value)' cannot contain line breaks or NUL", at: header.value.location)
        }
    }

    private mutating func checkHeaderName(_ name: Located<String>) {
        let separators = "!#$%&'*+-.^_`|~"
        let isToken = !name.value.isEmpty && name.value.unicodeScalars.allSatisfy {
            $0.isASCII && (($0.properties.isAlphabetic) || ("0"..."9").contains($0) || separators.unicodeScalars.contains($0))
        }
        if !isToken {
            diagnostics.error("'\(name.value)' is not a valid HTTP header name: use letters, digits and !#$%&'*+-.^_`|~", at: name.location)
        }
    }

    /// Two generated files whose names differ only in case would overwrite each other on macOS.
    private mutating func checkFileNames(_ files: [(path: String, manifestName: String, location: SourceLocation)]) {
        var seen: [String: (name: String, location: SourceLocation)] = [:]
        for file in files {
            if let other = seen.updateValue((file.manifestName, file.location), forKey: file.path.lowercased()) {
                diagnostics.error(
                    "'\(file.manifestName)' would generate \(file.path), whose name differs only in case from the file of '\(other.name)' at \(other.location); case-insensitive file systems would keep one",
                    at: file.location
                )
            }
        }
    }

    private func headers(_ headers: [Header]) -> [HeaderDescription] {
        headers.map { HeaderDescription(name: $0.name.value, value: $0.value.value) }
    }

    private func columnShifted(_ value: Located<String>, by offset: Int) -> SourceLocation {
        var location = value.location
        if !value.value.contains("\n") { location.column += offset }
        return location
    }
}
