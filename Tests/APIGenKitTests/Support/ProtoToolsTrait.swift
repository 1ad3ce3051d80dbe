import APIGenKit
import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// For tests that run the real protoc and protoc-gen-swift (`make protoc`, or the plugin
    /// fixture's build, whose `protoc-tool` apigen finds too): skipped on a machine without them,
    /// never in CI (`CI` set), where a skip would hide a check that did not run.
    static var needsProtoTools: Self {
        .enabled(
            if: Generator.grpcToolsMissing == nil || ProcessInfo.processInfo.environment["CI"] != nil,
            "needs protoc and protoc-gen-swift: make protoc"
        )
    }
}
