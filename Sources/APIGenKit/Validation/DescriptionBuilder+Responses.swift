import APIManifest

/// `responses:` of an API or of the workspace's defaults: a success type, and error bodies by status.
extension DescriptionBuilder {
    /// The 2xx entry, if any, as the API's success type (`none` for no body), and the error
    /// bodies; the workspace's defaults may declare error bodies only.
    mutating func describeResponses(
        _ entries: [StatusResponseDeclaration], allowsSuccess: Bool
    ) -> (success: StatusResponseDeclaration?, errors: [ErrorBodyDescription]) {
        var success: StatusResponseDeclaration?
        var errors: [ErrorBodyDescription] = []
        for entry in entries {
            let at = entry.status.location
            if let status = entry.status.value {
                guard (100...599).contains(status) else {
                    diagnostics.error("a status code is 100 to 599, found \(status)", at: at)
                    continue
                }
                switch status {
                case 200...299:
                    if !allowsSuccess {
                        diagnostics.error("the workspace's 'responses:' declare error bodies (4xx, 5xx, default), not \(status)", at: at)
                    } else if let first = success {
                        diagnostics.error("a second success status \(status): the API's reply type is declared once (at \(first.status.value.map(String.init) ?? ""))", at: at)
                    } else if (status == 204 || status == 205), let type = entry.type {
                        diagnostics.error("\(status) has no body, so it has no type: write '\(status): none', not '\(type.value)'", at: type.location)
                    } else {
                        success = entry
                    }
                    continue
                case 400...599:
                    break
                default:
                    diagnostics.error("only 2xx, 4xx and 5xx statuses and 'default' can be declared, found \(status)", at: at)
                    continue
                }
            }
            guard let type = entry.type else { continue }
            guard case .named(let name) = type.value, types.kind(of: name) == .model else {
                diagnostics.error("an error body is a model declared under 'types:' (it becomes a Swift Error), found '\(type.value)'", at: type.location)
                continue
            }
            guard let resolved = types.resolve(type, into: &diagnostics) else { continue }
            errorBodies.insert(name)
            errors.append(ErrorBodyDescription(status: entry.status.value, swiftType: resolved.spelling))
        }
        return (success, errors)
    }

    /// `responseHeaders:`: each a scalar or an enum, read from the header its wire name
    /// names; absent or unreadable headers are nil.
    mutating func describeResponseHeaders(_ headers: [ParameterDeclaration]) -> [ParameterDescription] {
        var swiftNames = SwiftNames(kind: "response header")
        return headers.compactMap { header in
            let swiftName = SwiftIdentifier.make(from: header.name.value, capitalized: false)
            swiftNames.claim(swiftName, for: header.name, into: &diagnostics)
            let wireName = header.wireName ?? header.name
            checkHeaderName(wireName)
            let type = header.type.value.unwrapped
            guard case .named(let name) = type, [.scalar, .enumeration].contains(types.kind(of: name)), !["JSON", "Data", "File"].contains(name) else {
                diagnostics.error("response header '\(header.name.value)' must be a scalar or an enum (String, Int, Int32, Int64, Double, Float, Decimal, Bool, Date, CalendarDate, URL, UUID), found '\(header.type.value)'", at: header.type.location)
                return nil
            }
            guard let resolved = types.resolve(Located(type, at: header.type.location), into: &diagnostics) else { return nil }
            return ParameterDescription(
                swiftName: SwiftIdentifier.escaped(swiftName), wireName: wireName.value, type: resolved,
                location: .header, docLines: SwiftLiteral.docLines(header.description?.value)
            )
        }
    }
}
