import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PipelineCore

/// The review page: server-rendered HTML over a `ReviewStore`, with a little plain JavaScript and no build step.
///
/// Safe by default: it binds loopback unless told otherwise and refuses any other address without a token; every
/// POST carries the page's CSRF token; every value from a receipt is escaped (`HTML`); images are served by id.
public struct ReviewServer: Sendable {
    let store: any ReviewStore
    let options: ReviewServerOptions
    /// Upload, metrics and health routes (`pipeline serve`); nil for the review page alone.
    let service: ServiceEndpoints?
    /// Sent in every form and checked on every POST.
    let csrfToken: String
    /// The cookie a login link sets.
    let sessionToken: String
    let loginKeys = LoginKeys()
    /// Where a failure's full reason goes (the client gets a short answer).
    let logger: Logger

    /// - Throws: `ReviewServerError` when asked to listen beyond loopback without a token.
    public init(
        store: any ReviewStore, options: ReviewServerOptions, service: ServiceEndpoints? = nil,
        logger: Logger = Logger(label: "review")
    ) throws(ReviewServerError) {
        try options.validate()
        self.store = store
        self.options = options
        self.service = service
        self.logger = logger
        csrfToken = Self.randomToken()
        sessionToken = Self.randomToken()
    }

    /// A fresh one-time login link path (`/login?key=…`), nil when the page needs no login.
    public func makeLoginPath() async -> String? {
        guard options.requiresLogin else { return nil }
        return "/login?key=" + (await loginKeys.issue(Self.randomToken()))
    }

    /// Serves the page until SIGINT or SIGTERM, then shuts down gracefully (open requests finish; no error is
    /// logged); `onRunning` gets the bound port once it listens. Other handlers of those signals (`ShutdownSignals`)
    /// are called as well.
    public func run(logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void) async throws {
        let port = options.port
        let idle = options.idleTimeout.components
        let application = Application(
            router: makeRouter(),
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    idleTimeout: TimeAmount.nanoseconds(
                        idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000))),
            configuration: ApplicationConfiguration(
                address: .hostname(options.host, port: port),
                availableConnectionsDelegate: MaximumAvailableConnections(options.maxConnections, logger: logger)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        try await application.runService()
    }

    /// The routes, for the application and for request-level tests.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(
            middleware: HostCheckMiddleware(
                allowedHosts: AllowedHosts(listenHost: options.host, configured: options.allowedHosts),
                setting: "review.allowedHosts"))
        router.add(middleware: AccessMiddleware(server: self))
        addRoutes(to: router)
        if let service { addServiceRoutes(service, to: router) }
        return router
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }
}

/// One-time login keys: each opens one browser session, then is gone.
actor LoginKeys {
    private var unused: Set<String> = []

    func issue(_ key: String) -> String {
        unused.insert(key)
        return key
    }

    func redeem(_ key: String) -> Bool {
        unused.remove(key) != nil
    }
}

/// Compares secrets in time independent of where they differ.
func constantTimeEquals(_ left: String, _ right: String) -> Bool {
    let a = Array(left.utf8)
    let b = Array(right.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}

/// Lets in requests that hold the token (bearer or session cookie) when the page needs a login, and adds the
/// security headers to every response.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let server: ReviewServer

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        let isOpen = request.uri.path == "/login" || request.uri.path == ServiceRoute.health
        if server.options.requiresLogin && !isOpen && !isAuthorized(request) {
            response = Response.text(
                .unauthorized,
                "Log in with the link pipeline review printed at start, or send Authorization: Bearer <review token>.")
        } else {
            response = try await next(request, context)
        }
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; img-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "form-action 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on the page's own forms.
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-store"
        return response
    }

    private func isAuthorized(_ request: Request) -> Bool {
        if let token = server.options.token, let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            constantTimeEquals(String(header.dropFirst("Bearer ".count)), token)
        {
            return true
        }
        return cookie("review_session", in: request).map { constantTimeEquals($0, server.sessionToken) } ?? false
    }
}

/// A cookie's value from the request's `Cookie` headers.
func cookie(_ name: String, in request: Request) -> String? {
    for header in request.headers[values: .cookie] {
        for pair in header.split(separator: ";") {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2 && parts[0] == name { return String(parts[1]) }
        }
    }
    return nil
}

extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

extension ReviewServer {
    /// The answer to a failure that is no refusal of the request: 503 when the store cannot be reached right now
    /// (try again), 500 otherwise; the client gets a short reason, the server's log the whole error.
    /// - Returns: the status and the words for the client.
    func failure(_ error: any Error, while doing: String) -> (status: HTTPResponse.Status, message: String) {
        logger.error("\(doing) failed: \(error)")
        if let error = error as? any StoreUnavailableError, error.meansStoreUnavailable {
            return (.serviceUnavailable, "the database cannot be reached right now; try again in a moment")
        }
        return (.internalServerError, "something went wrong on the server; its log says what")
    }
}

extension Response {
    /// A plain-text response.
    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// An HTML page.
    static func html(_ html: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html.text)))
    }

    /// A redirect after a POST, so reloading does not post again.
    static func seeOther(_ location: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }
}
