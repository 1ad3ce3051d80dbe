/// Fields that tell one request of a call from another, or one load-balanced connection from
/// another, and say nothing of what the call asks or who makes it: a call's identity and its
/// credentials leave them out, or every request would be a call of its own.
enum VolatileFields {
    /// Headers whose values differ on every request of one call: W3C Trace Context and baggage,
    /// B3, AWS's and Google's trace headers, request and correlation ids, and the request's date.
    static let headers: Set<String> = [
        "traceparent", "tracestate", "baggage", "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "x-b3-flags",
        "uber-trace-id", "x-amzn-trace-id", "x-cloud-trace-context", "sentry-trace", "x-request-id", "request-id", "x-correlation-id", "date",
    ]

    /// Cookies of load balancers and bot filters (AWS, HAProxy, Cloudflare, Akamai), by
    /// lowercased name, which some renew on every reply.
    static let cookies: Set<String> = [
        "awsalb", "awsalbcors", "awsalbtg", "awsalbtgcors", "awselb", "awselbcors", "serverid", "routeid", "__cf_bm", "_cfuvid", "ak_bmsc", "bm_sv",
    ]

    /// Whether a cookie of this lowercased name is a load balancer's or a bot filter's: one of
    /// `cookies`, or F5's, named `BIGipServer` and its pool.
    static func isVolatileCookie(_ name: String) -> Bool {
        cookies.contains(name) || name.hasPrefix("bigipserver")
    }
}
