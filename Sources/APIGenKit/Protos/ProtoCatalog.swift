import Foundation
import SwiftProtobufPluginLibrary

/// The services and methods one manifest's protos declare, with the Swift names protoc-gen-swift
/// gives their messages.
struct ProtoCatalog: Sendable {
    struct Method: Sendable {
        /// `package.Service/Method`, as gRPC puts it in the request path.
        var fullName: String
        var name: String
        var requestType: String
        var responseType: String
        /// The request and response messages' full proto names (`routeguide.Point`).
        var requestMessage: String
        var responseMessage: String
        var clientStreams: Bool
        var serverStreams: Bool
        /// `option idempotency_level = IDEMPOTENT` or `NO_SIDE_EFFECTS`.
        var isIdempotent: Bool
        /// `option idempotency_level = NO_SIDE_EFFECTS`: its replies may be cached.
        var hasNoSideEffects: Bool
        /// The proto's comment on the method, a line each, without `//`.
        var commentLines: [String]
    }

    /// Methods by `package.Service/Method`.
    var methods: [String: Method] = [:]
    /// Method names in declaration order, by `package.Service`.
    var services: [String: [String]] = [:]
    /// Every message and enum of the protos and their imports.
    var shapes = ProtoShapes()

    init() {}

    init(_ set: DescriptorSet) {
        shapes = ProtoShapes(set)
        let mappings = ProtoFileToModuleMappings()
        for file in set.files {
            let namer = SwiftProtobufNamer(currentFile: file, protoFileToModuleMappings: mappings)
            for service in file.services {
                var names: [String] = []
                for method in service.methods {
                    let fullName = "\(service.fullName)/\(method.name)"
                    names.append(fullName)
                    let idempotency = method.options.idempotencyLevel
                    methods[fullName] = Method(
                        fullName: fullName,
                        name: method.name,
                        requestType: namer.fullName(message: method.inputType),
                        responseType: namer.fullName(message: method.outputType),
                        requestMessage: method.inputType.fullName,
                        responseMessage: method.outputType.fullName,
                        clientStreams: method.clientStreaming,
                        serverStreams: method.serverStreaming,
                        isIdempotent: idempotency == .idempotent || idempotency == .noSideEffects,
                        hasNoSideEffects: idempotency == .noSideEffects,
                        commentLines: Self.commentLines(method.protoSourceComments(commentPrefix: ""))
                    )
                }
                services[service.fullName] = names
            }
        }
    }

    /// protoc's comment text (` Sends a greeting.\n`) as lines, trailing blank ones dropped.
    private static func commentLines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = line.hasPrefix(" ") ? line.dropFirst() : line[...]
            return String(trimmed).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return lines
    }
}
