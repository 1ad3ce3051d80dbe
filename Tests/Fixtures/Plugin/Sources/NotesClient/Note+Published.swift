// SwiftPM makes a target only of a folder with a Swift file in it: this hand-written extension
// is that file, beside the code APIGenPlugin generates from apis/.
extension Note {
    /// Whether readers other than the author can see the note.
    public var isPublished: Bool { state == .published }
}
