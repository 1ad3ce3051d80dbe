import APIManifest
import Foundation

/// JSON-RPC and custom RPC APIs: endpoint, parameter structure, envelope and delegate.
extension DescriptionBuilder {
    mutating func describeRPC(_ api: APIDeclaration, _ endpoint: RPCEndpoint, reserving typesNamed: [String: String]) -> (rpc: RPCDescription, parameters: [ParameterDescription], absoluteURL: String?) {
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

        var delegateType = "APIRuntime.JSONRPC"
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

        var reserved = typesNamed
        if api.kind.value == .rpc { reserved[delegateType] = "the API's definition makes its delegate through this name" }
        var swiftNames = SwiftNames.parameters(alsoReserving: reserved)
        var wireNames = WireNames()
        var parameters: [ParameterDescription] = []
        for parameter in api.parameters {
            let swiftName = SwiftIdentifier.make(from: parameter.name.value, capitalized: false)
            swiftNames.claimParameter(swiftName, for: parameter.name, into: &diagnostics)
            if let location = parameter.location {
                diagnostics.error("RPC parameters travel in the envelope; remove 'in: \(location.value.rawValue)'", at: location.location)
            }
            if structure == .byPosition, let wireName = parameter.wireName {
                diagnostics.error("by-position parameters have no name on the wire; remove 'name:'", at: wireName.location)
            } else if structure != .byPosition {
                wireNames.claim(parameter.wireName ?? parameter.name, in: .body, for: "parameter '\(parameter.name.value)'", into: &diagnostics)
            }
            guard let type = types.resolve(parameter.type, into: &diagnostics) else { continue }
            var described = ParameterDescription(
                swiftName: SwiftIdentifier.escaped(swiftName),
                wireName: parameter.wireName?.value ?? parameter.name.value,
                type: type, location: .body,
                docLines: SwiftLiteral.docLines(parameter.description?.value)
            )
            describeValue(of: parameter, into: &described)
            parameters.append(described)
        }
        let rpc = RPCDescription(
            path: path, method: endpoint.method.value, structure: structure,
            isNotification: isNotification, envelope: envelope, delegateType: delegateType
        )
        return (rpc, parameters, absoluteURL)
    }

    /// The custom delegate types declared in the module's hand-written sources, read once.
    mutating func delegateTypes() -> Set<String> {
        handWritten().delegates
    }

    /// What the module's hand-written sources declare, read once.
    mutating func handWritten() -> SourceScanner.Declarations {
        if let handWrittenDeclarations { return handWrittenDeclarations }
        let found = SourceScanner.scan(workspace.sourcesDirectory, excluding: workspace.outputDirectory)
        handWrittenDeclarations = found
        return found
    }
}
