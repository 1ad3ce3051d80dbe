import APIManifest

/// JSON Schema (the 2020-12 dialect OpenAPI 3.1 and OpenRPC documents use) for manifest types.
enum SchemaWriter {
    static func reference(_ name: String) -> String {
        "#/components/schemas/" + name
    }

    /// A schema per type the manifests declare, by its manifest name.
    static func schemas(of workspace: LoadedWorkspace) -> [String: Any] {
        var schemas: [String: Any] = [:]
        for file in workspace.files {
            for type in file.types {
                var schema = self.schema(of: type)
                if let text = type.description?.value { schema["description"] = text }
                schemas[type.name.value] = schema
            }
        }
        return schemas
    }

    private static func schema(of type: TypeDeclaration) -> [String: Any] {
        switch type.shape {
        case .model(let fields):
            var properties: [String: Any] = [:]
            var required: [String] = []
            for field in fields {
                let key = field.jsonKey?.value ?? field.name.value
                var property = Self.schema(field.type.value.unwrapped, format: field.format?.value ?? .iso8601)
                if let text = field.description?.value { property["description"] = text }
                if let value = field.defaultValue?.value { property["default"] = defaultValue(value, of: property) }
                properties[key] = property
                if !field.type.value.isOptional, field.defaultValue == nil { required.append(key) }
            }
            var object: [String: Any] = ["type": "object", "properties": properties]
            if !required.isEmpty { object["required"] = required }
            if type.additionalProperties?.value == true { object["additionalProperties"] = true }
            return object
        case .enumeration(let enumeration):
            let isText = (enumeration.rawType?.value ?? "String") == "String"
            let values: [Any] = enumeration.cases.map { isText ? $0.rawValue.value : (Int64($0.rawValue.value) ?? 0) as Any }
            return ["type": isText ? "string" : "integer", "enum": values]
        case .union(let union):
            var oneOf: [String: Any] = ["oneOf": union.alternatives.map { Self.schema($0.value, format: .iso8601) }]
            if let discriminator = union.discriminator {
                var choice: [String: Any] = ["propertyName": discriminator.value]
                if !union.mapping.isEmpty {
                    choice["mapping"] = Dictionary(union.mapping.map { ($0.value.value, reference($0.type.value)) }, uniquingKeysWith: { first, _ in first })
                }
                oneOf["discriminator"] = choice
            }
            return oneOf
        case .external(let swiftType):
            return ["description": "The app's own Swift type \(swiftType.value)."]
        }
    }

    /// The schema of a type expression; optionality is the caller's (a property not required).
    static func schema(_ expression: TypeExpression, format: DateFormat) -> [String: Any] {
        switch expression {
        case .optional(let wrapped):
            return schema(wrapped, format: format)
        case .array(let element):
            return ["type": "array", "items": schema(element.unwrapped, format: .iso8601)]
        case .dictionary(let value):
            return ["type": "object", "additionalProperties": schema(value.unwrapped, format: .iso8601)]
        case .named(let name):
            switch name {
            case "String": return ["type": "string"]
            case "Int", "Int64": return ["type": "integer", "format": "int64"]
            case "Int32": return ["type": "integer", "format": "int32"]
            case "Double": return ["type": "number", "format": "double"]
            case "Float": return ["type": "number", "format": "float"]
            case "Decimal": return ["type": "number"]
            case "Bool": return ["type": "boolean"]
            case "Date":
                switch format {
                case .iso8601: return ["type": "string", "format": "date-time"]
                case .unixSeconds: return ["type": "number", "description": "Seconds since 1970-01-01T00:00:00Z."]
                case .unixMilliseconds: return ["type": "number", "description": "Milliseconds since 1970-01-01T00:00:00Z."]
                }
            case "CalendarDate": return ["type": "string", "format": "date"]
            case "URL": return ["type": "string", "format": "uri"]
            case "UUID": return ["type": "string", "format": "uuid"]
            case "Data": return ["type": "string", "contentEncoding": "base64"]
            case "File": return ["type": "string", "format": "binary"]
            case "JSON": return [:]
            default: return ["$ref": reference(name)]
            }
        }
    }

    /// A default as JSON: a number or a Boolean where the schema says so, else the text.
    private static func defaultValue(_ text: String, of schema: [String: Any]) -> Any {
        switch schema["type"] as? String {
        case "integer": return Int64(text).map { $0 as Any } ?? text
        case "number": return Double(text).map { $0 as Any } ?? text
        case "boolean": return text == "true"
        default: return text
        }
    }
}
