import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The host names a server answers to, against DNS rebinding: a page at `rebind.attacker.test` that resolves to
/// 127.0.0.1 reaches a loopback server with its own name in `Host`, so the name, not the address, is checked.
///
/// The listen address's own names: on loopback `127.0.0.1`, `localhost` and `[::1]` (and the address itself); on a
/// given address that address; on every address (`0.0.0.0`, `::`) the loopback names and any IP literal, since an
/// address typed in a browser is one the request really went to. Names in `configured` (a reverse proxy's, a LAN
/// name) are added; the port is not part of the check (another port is another origin anyway).
public struct AllowedHosts: Sendable, CustomStringConvertible {
    private let names: Set<String>
    private let anyAddress: Bool

    /// - Parameters:
    ///   - listenHost: the address the server binds (`127.0.0.1`, `::1`, `0.0.0.0`, `192.168.1.20`).
    ///   - configured: further host names, without scheme or port (`review.allowedHosts`).
    public init(listenHost: String, configured: [String]) {
        let host = Self.normalized(
            listenHost.contains(":") && !listenHost.hasPrefix("[") ? "[\(listenHost)]" : listenHost)
        let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        anyAddress = ["0.0.0.0", "[::]", ""].contains(host)
        var names = Set(configured.map(Self.normalized))
        if Self.isLoopback(host) || anyAddress { names.formUnion(loopbackNames) }
        if !anyAddress { names.insert(host) }
        self.names = names
    }

    /// True for addresses only this machine can reach: `localhost`, `::1` (bracketed or not), `127.x.x.x`.
    public static func isLoopback(_ host: String) -> Bool {
        ["localhost", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
    }

    /// Whether a request whose `Host` (HTTP/2 `:authority`) is `authority` may be served; false when it has none.
    public func allows(authority: String?) -> Bool {
        guard let authority, let host = Self.host(ofAuthority: authority) else { return false }
        return names.contains(host) || (anyAddress && Self.isAddressLiteral(host))
    }

    /// The names, for messages: `127.0.0.1, [::1], localhost`.
    public var description: String {
        (names.sorted() + (anyAddress ? ["any IP address"] : [])).joined(separator: ", ")
    }

    /// The host of `host[:port]`, lower-cased, without a trailing dot; nil when it is no host name or address.
    static func host(ofAuthority authority: String) -> String? {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || rest.wholeMatch(of: /:[0-9]{1,5}/) != nil else { return nil }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].wholeMatch(of: /[0-9]{1,5}/) != nil else { return nil }
            host = host[..<colon]
        }
        let name = normalized(String(host))
        guard name.wholeMatch(of: /[a-z0-9]([a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\]/) != nil else { return nil }
        return name
    }

    private static func normalized(_ name: String) -> String {
        let lowered = name.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }

    private static func isAddressLiteral(_ host: String) -> Bool {
        host.hasPrefix("[") || host.wholeMatch(of: /[0-9]{1,3}(\.[0-9]{1,3}){3}/) != nil
    }
}

/// Serves a request only when its `Host` is an allowed name (else 421 Misdirected Request), and refuses a
/// state-changing request (anything but GET, HEAD, OPTIONS) whose `Origin` is not the server's own (403): the one
/// place the review page, and any other page of `pipeline`, checks where a request came from.
public struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowedHosts: AllowedHosts
    /// The setting that adds names, for the refusal's remedy (`review.allowedHosts`).
    let setting: String

    public init(allowedHosts: AllowedHosts, setting: String) {
        self.allowedHosts = allowedHosts
        self.setting = setting
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let authority = request.head.authority
        // The first Host became the authority; one left among the fields is a second Host, which HTTP/1.1 refuses.
        guard request.headers[values: .secondHost].isEmpty else {
            return refusal(.badRequest, "the request named more than one Host; send exactly one")
        }
        guard allowedHosts.allows(authority: authority) else {
            let named = authority.map { "\"\($0)\"" } ?? "no host"
            return refusal(
                .misdirectedRequest,
                "this server answers only to \(allowedHosts) (the request named \(named)); add the name it is reached "
                    + "by to \(setting)")
        }
        if ![.get, .head, .options].contains(request.method), let origin = request.headers[.origin],
            !isSameOrigin(origin, authority: authority)
        {
            return refusal(.forbidden, "the request came from another site (\(origin)); it was not applied")
        }
        return try await next(request, context)
    }

    /// `Origin` names this server: an http(s) origin whose host and port are the request's own `Host`.
    private func isSameOrigin(_ origin: String, authority: String?) -> Bool {
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host(percentEncoded: false), let authority
        else { return false }
        let literal = host.contains(":") ? "[\(host)]" : host
        let originAuthority = literal + (url.port.map { ":\($0)" } ?? "")
        return AllowedHosts.host(ofAuthority: originAuthority) == AllowedHosts.host(ofAuthority: authority)
            && (url.port ?? (scheme == "https" ? 443 : 80)) == port(of: authority, scheme: scheme)
    }

    private func port(of authority: String, scheme: String) -> Int {
        if let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) {
            return port
        }
        return scheme == "https" ? 443 : 80
    }

    private func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

extension HTTPField.Name {
    /// A `Host` field still among a request's fields after the first became its authority.
    static let secondHost = HTTPField.Name("Host")!
}
