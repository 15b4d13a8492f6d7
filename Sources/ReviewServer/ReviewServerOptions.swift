import PipelineCore

/// How the review page listens and who it lets in.
public struct ReviewServerOptions: Sendable {
    /// Address to bind; loopback by default.
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// Required on any address other than loopback: sent as `Authorization: Bearer …`, or exchanged once for a
    /// session cookie through the login link printed at start.
    public var token: String?
    /// Who the page's corrections are recorded as.
    public var reviewer: String
    /// Re-runs the arithmetic checks over corrected amounts and items (the pipeline's validation settings).
    public var reconciler: Reconciler
    /// Host names served besides the listen address's own (`review.allowedHosts`).
    public var allowedHosts: [String]
    /// A connection that sends nothing for this long (no request, or a request cut off mid-header) is closed.
    public var idleTimeout: Duration
    /// Connections open at once; further clients wait in the listen backlog until one closes. With HTTP/1.1 a
    /// connection carries one request at a time, so this also bounds the requests in flight.
    public var maxConnections: Int

    public init(
        host: String = "127.0.0.1", port: Int = 8080, token: String? = nil, reviewer: String,
        reconciler: Reconciler = Reconciler(tolerance: Reconciler.defaultTolerance),
        allowedHosts: [String] = [], idleTimeout: Duration = .seconds(30), maxConnections: Int = 256
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.reviewer = reviewer
        self.reconciler = reconciler
        self.allowedHosts = allowedHosts
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }

    /// Checks, before anything starts, that the page may serve on this address: beyond loopback it needs a token.
    /// - Throws: `ReviewServerError` saying how to set the token or where to listen instead.
    public func validate() throws(ReviewServerError) {
        if !isLoopback && (token ?? "").isEmpty {
            throw ReviewServerError(
                "refusing to serve the review page on \(host) without a token: set the review token "
                    + "(PIPELINE_REVIEW_TOKEN, or the variable named by review.tokenEnvironmentVariable) "
                    + "or listen on 127.0.0.1")
        }
    }

    /// Parses `HOST:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `:8080` for loopback).
    /// - Throws: `ReviewServerError` naming the accepted form.
    public static func parseListen(_ text: String) throws(ReviewServerError) -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            throw ReviewServerError("--listen must be HOST:PORT such as 127.0.0.1:8080 (got \"\(text)\")")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }

    /// True for addresses only this machine can reach.
    public var isLoopback: Bool { AllowedHosts.isLoopback(host) }

    /// Whether requests must prove they hold the token.
    var requiresLogin: Bool { !isLoopback || token != nil }
}

/// Why the review page cannot start, with what to do.
public struct ReviewServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
