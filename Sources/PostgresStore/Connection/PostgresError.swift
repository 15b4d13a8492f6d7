import PipelineCore

/// A failure talking to PostgreSQL, with the server's SQLSTATE when there is one.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for callers that classify (exit 3, retry, fail).
    public enum Code: String, Sendable {
        /// The server could not be reached or refused the login.
        case connectionFailed
        /// The connection broke during a command; reconnecting may help.
        case connectionLost
        /// The server rejected a statement (see `sqlState`).
        case statementFailed
        /// A result value did not have the expected type.
        case decodingFailed
        /// A value could not be written as its column's type (JSON that would not encode).
        case encodingFailed
    }

    public let code: Code
    /// The primary message (libpq's or the server's), without a trailing newline.
    public let message: String
    /// Five-character SQLSTATE, e.g. `23505` for a unique violation.
    public let sqlState: String?
    public let detail: String?
    public let hint: String?

    public init(code: Code, message: String, sqlState: String? = nil, detail: String? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
    }

    /// True for failures a retry (after reconnecting) can cure: lost connections, serialization failures,
    /// deadlocks, the server shutting down or starting up.
    public var isTransient: Bool {
        switch code {
        case .connectionFailed, .connectionLost: return true
        case .decodingFailed, .encodingFailed: return false
        case .statementFailed:
            guard let sqlState else { return false }
            return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState == "40001" || sqlState == "40P01"
                || sqlState == "53300"
        }
    }

    /// True when a value cannot be stored: the server refused it (SQLSTATE class 22, data exception: a date or
    /// number out of range, text that is not of the column's type) or it would not encode as its column's JSON. The
    /// same statement fails the same way every time.
    public var isDataException: Bool {
        code == .encodingFailed || (code == .statementFailed && sqlState?.hasPrefix("22") == true)
    }

    /// True when the server is out of reach: it could not be reached, the connection broke, or the server is
    /// shutting down or ended the session (SQLSTATE classes 08 and 57P). Commands exit 3 for these.
    public var meansDatabaseUnreachable: Bool {
        switch code {
        case .connectionFailed, .connectionLost: return true
        case .decodingFailed, .encodingFailed: return false
        case .statementFailed: return sqlState.map { $0.hasPrefix("08") || $0.hasPrefix("57P") } ?? false
        }
    }

    /// True when a connection was refused because the server is starting up or recovering (SQLSTATE 57P03, which
    /// libpq reports on a failed connection as the server's words only): waiting a moment cures it.
    public var meansServerStartingUp: Bool {
        code == .connectionFailed
            && (message.contains("the database system is starting up")
                || message.contains("the database system is not yet accepting connections")
                || message.contains("the database system is not accepting connections")
                || message.contains("the database system is in recovery mode"))
    }

    public var description: String {
        var text = message
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let detail { text += "; \(detail)" }
        if let hint { text += "; hint: \(hint)" }
        return text
    }
}

extension PostgresError: StoreUnavailableError {
    public var meansStoreUnavailable: Bool { meansDatabaseUnreachable }
}
