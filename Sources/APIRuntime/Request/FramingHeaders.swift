import HTTPTypes

extension HTTPField.Name {
    /// Whether the field frames the message (`Content-Length`, `Transfer-Encoding`, `Host`, …):
    /// the transport writes those from the request itself, and one a caller set as well could
    /// make a proxy and a server read the message differently (request smuggling). The manager
    /// drops them from the headers a definition, a parameter or a call's options give.
    var isFraming: Bool {
        switch canonicalName {
        case "host", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "upgrade", "proxy-connection": true
        default: false
        }
    }
}
