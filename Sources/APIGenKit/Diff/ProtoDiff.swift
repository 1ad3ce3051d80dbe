import APIManifest

/// The changes between two versions of the protos a workspace's gRPC APIs use, field number by
/// field number as the wire knows them, at the line of the first API that uses each message.
/// A field removed, renumbered to another name or type, or made repeated breaks; a field added
/// does not. Buf's `breaking` rules of the WIRE_JSON category are the model, for the messages
/// the workspace reaches.
struct ProtoDiff {
    let old: WorkspaceDescription
    let new: WorkspaceDescription

    func compare(into changes: inout [WorkspaceChange]) {
        let users = messageUsers()
        var comparedEnums: Set<String> = []
        for (message, location) in users.sorted(by: { $0.key < $1.key }) {
            guard let before = old.protoShapes.messages[message], let now = new.protoShapes.messages[message] else { continue }
            for (number, field) in before.fields.sorted(by: { $0.key < $1.key }) {
                let subject = "\(message).\(field.name)"
                guard let current = now.fields[number] else {
                    changes.append(WorkspaceChange(.breaking, subject, "field \(number) was removed; what was built from the old proto still sends and reads it (reserve its number)", at: location))
                    continue
                }
                if current.name != field.name {
                    changes.append(WorkspaceChange(.breaking, subject, "field \(number) is '\(current.name)' now; its JSON name and generated property changed", at: location))
                }
                if current.type != field.type || current.isRepeated != field.isRepeated {
                    let change = "\(Self.spelling(field)) to \(Self.spelling(current))"
                    changes.append(WorkspaceChange(.breaking, subject, "field \(number) changed from \(change); what was built from the old proto reads it wrong", at: location))
                }
                if case .enumeration(let name) = field.type, current.type == field.type, comparedEnums.insert(name).inserted {
                    compareEnum(name, at: location, into: &changes)
                }
            }
            for (number, field) in now.fields.sorted(by: { $0.key < $1.key }) where before.fields[number] == nil {
                changes.append(WorkspaceChange(.compatible, "\(message).\(field.name)", "a new field \(number)", at: location))
            }
        }
    }

    private func compareEnum(_ name: String, at location: SourceLocation, into changes: inout [WorkspaceChange]) {
        guard let before = old.protoShapes.enums[name], let now = new.protoShapes.enums[name] else { return }
        for (number, value) in before.sorted(by: { $0.key < $1.key }) {
            guard let current = now[number] else {
                changes.append(WorkspaceChange(.breaking, name, "value \(value) (\(number)) was removed; what was built from the old proto may send it", at: location))
                continue
            }
            if current != value {
                changes.append(WorkspaceChange(.breaking, name, "value \(number) is \(current) now, \(value) before; proto's JSON names it", at: location))
            }
        }
        for (number, value) in now.sorted(by: { $0.key < $1.key }) where before[number] == nil {
            changes.append(WorkspaceChange(.compatible, name, "a new value \(value) (\(number))", at: location))
        }
    }

    /// Each message the new version's gRPC APIs send or read, with the first of them, through
    /// every message field.
    private func messageUsers() -> [String: SourceLocation] {
        var users: [String: SourceLocation] = [:]
        func visit(_ message: String, _ location: SourceLocation) {
            guard users[message] == nil else { return }
            users[message] = location
            for field in new.protoShapes.messages[message]?.fields.values ?? [:].values {
                if case .message(let name) = field.type { visit(name, location) }
            }
            for field in old.protoShapes.messages[message]?.fields.values ?? [:].values {
                if case .message(let name) = field.type { visit(name, location) }
            }
        }
        for api in new.apis {
            guard let grpc = api.grpc else { continue }
            visit(grpc.requestMessage, api.declaredAt)
            visit(grpc.responseMessage, api.declaredAt)
        }
        return users
    }

    static func spelling(_ field: ProtoShapes.Field) -> String {
        let type = switch field.type {
        case .enumeration(let name), .message(let name): name
        default: "\(field.type)"
        }
        return field.isRepeated ? "repeated " + type : type
    }
}
