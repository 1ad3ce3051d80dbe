import APIManifest

/// The changes between two versions of the protos a workspace's gRPC APIs use, field number by
/// field number as the wire knows them, at the line of the first API that uses each message.
/// A field removed without reserving its number, given another name, JSON name, type or oneof
/// under its number, or made repeated breaks; a field added does not. Buf's `breaking` rules of
/// the WIRE_JSON category are the model, for the messages the workspace reaches; a message's own
/// name is not on the wire, so a method whose request is renamed is compared field by field.
struct ProtoDiff {
    let old: WorkspaceDescription
    let new: WorkspaceDescription

    func compare(into changes: inout [WorkspaceChange]) {
        let users = messageUsers()
        var comparedEnums: Set<String> = []
        for (pair, location) in users.sorted(by: { ($0.key.old, $0.key.new) < ($1.key.old, $1.key.new) }) {
            guard let before = old.protoShapes.messages[pair.old], let now = new.protoShapes.messages[pair.new] else { continue }
            let message = pair.new
            if pair.old != pair.new {
                changes.append(WorkspaceChange(.compatible, message, "the message was \(pair.old); its name is not on the wire", at: location))
            }
            for (number, field) in before.fields.sorted(by: { $0.key < $1.key }) {
                let subject = "\(message).\(field.name)"
                guard let current = now.fields[number] else {
                    if now.reservedNumbers.contains(where: { $0.contains(number) }) {
                        changes.append(WorkspaceChange(.compatible, subject, "field \(number) was removed and its number reserved", at: location))
                    } else {
                        changes.append(WorkspaceChange(.breaking, subject, "field \(number) was removed; what was built from the old proto still sends and reads it (reserve its number to say it is gone for good)", at: location))
                    }
                    continue
                }
                if current.name != field.name {
                    changes.append(WorkspaceChange(.breaking, subject, "field \(number) is '\(current.name)' now; its JSON name and generated property changed", at: location))
                } else if current.jsonName != field.jsonName {
                    changes.append(WorkspaceChange(.breaking, subject, "field \(number)'s JSON name is '\(current.jsonName)' now, '\(field.jsonName)' before", at: location))
                }
                if current.oneof != field.oneof {
                    let move = "\(field.oneof.map { "oneof \($0)" } ?? "no oneof") to \(current.oneof.map { "oneof \($0)" } ?? "no oneof")"
                    changes.append(WorkspaceChange(.breaking, subject, "field \(number) moved from \(move): setting another member now clears it", at: location))
                }
                switch (field.type, current.type) {
                case (.message, .message) where field.isRepeated == current.isRepeated:
                    break  // Compared as a pair of their own (`messageUsers`).
                case (.enumeration(let oldEnum), .enumeration(let newEnum)) where field.isRepeated == current.isRepeated:
                    if comparedEnums.insert(oldEnum + " " + newEnum).inserted { compareEnum(oldEnum, newEnum, at: location, into: &changes) }
                default:
                    if current.type != field.type || current.isRepeated != field.isRepeated {
                        let change = "\(Self.spelling(field)) to \(Self.spelling(current))"
                        changes.append(WorkspaceChange(.breaking, subject, "field \(number) changed from \(change); what was built from the old proto reads it wrong", at: location))
                    }
                }
            }
            for (number, field) in now.fields.sorted(by: { $0.key < $1.key }) where before.fields[number] == nil {
                changes.append(WorkspaceChange(.compatible, "\(message).\(field.name)", "a new field \(number)", at: location))
            }
        }
    }

    private func compareEnum(_ oldName: String, _ name: String, at location: SourceLocation, into changes: inout [WorkspaceChange]) {
        guard let before = old.protoShapes.enums[oldName], let now = new.protoShapes.enums[name] else { return }
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

    /// Each message of the old version and the new one's in its place (the same name, or the
    /// request or response of the same API, or the type of the same field number), with the
    /// first API that uses it.
    private func messageUsers() -> [MessagePair: SourceLocation] {
        var users: [MessagePair: SourceLocation] = [:]
        func visit(_ pair: MessagePair, _ location: SourceLocation) {
            guard users[pair] == nil else { return }
            users[pair] = location
            guard let before = old.protoShapes.messages[pair.old], let now = new.protoShapes.messages[pair.new] else { return }
            for (number, field) in now.fields {
                guard case .message(let newName) = field.type, case .message(let oldName)? = before.fields[number]?.type else { continue }
                visit(MessagePair(old: oldName, new: newName), location)
            }
        }
        let oldAPIs = Dictionary(old.apis.compactMap { api in api.shape.grpc.map { (api.manifestName, $0) } }, uniquingKeysWith: { first, _ in first })
        for api in new.apis {
            guard let grpc = api.shape.grpc else { continue }
            let before = oldAPIs[api.manifestName]
            visit(MessagePair(old: before?.requestMessage ?? grpc.requestMessage, new: grpc.requestMessage), api.declaredAt)
            visit(MessagePair(old: before?.responseMessage ?? grpc.responseMessage, new: grpc.responseMessage), api.declaredAt)
        }
        return users
    }

    /// A message of the old version, and the one in its place in the new.
    private struct MessagePair: Hashable {
        var old: String
        var new: String
    }

    static func spelling(_ field: ProtoShapes.Field) -> String {
        let type = switch field.type {
        case .enumeration(let name), .message(let name): name
        default: "\(field.type)"
        }
        return field.isRepeated ? "repeated " + type : type
    }
}
