import BlockingExecution
import CLibPQ
import Foundation
import Logging
import PipelineCore

/// Where to connect: a `postgres://` URL or libpq `key=value` string; empty uses the standard `PG*` environment
/// (and `~/.pgpass`, service files, `sslmode` — everything libpq understands).
public struct PostgresTarget: Sendable, Equatable, CustomStringConvertible {
    public var connectionString: String
    public var connectTimeout: Duration

    public init(_ connectionString: String, connectTimeout: Duration = .seconds(5)) {
        self.connectionString = connectionString
        self.connectTimeout = connectTimeout
    }

    /// The target with any password removed, safe to print.
    public var description: String {
        if connectionString.isEmpty { return "the PG* environment" }
        return Self.maskingPasswords(in: connectionString)
    }

    /// `text` with the password of every connection URL (`://user:secret@`) or `password=` setting replaced by
    /// `***`; line breaks are kept, so masked text still lines up with line numbers.
    public static func maskingPasswords(in text: String) -> String {
        text.replacingOccurrences(of: #"://([^:/@\s]+):[^@\s]*@"#, with: "://$1:***@", options: .regularExpression)
            .replacingOccurrences(
                of: #"password[ \t]*=[ \t]*[^\s&]+"#, with: "password=***", options: .regularExpression)
    }
}

/// One libpq connection, owned by an actor that runs on its own thread.
///
/// Every libpq call blocks, so all of them run on the connection's dedicated `ThreadExecutor`, never on the
/// cooperative pool. Statements use bound parameters only (`PQexecParams`); `bytea` goes in binary. The session
/// runs in UTC with ISO dates. Not shareable between concurrent transactions: give each worker its own.
public actor PostgresConnection {
    private let executor: ThreadExecutor
    private(set) var handle: OpaquePointer?
    private let noticeSink: NoticeSink
    /// Statements prepared on this session (SQL → name), by `queryPrepared`.
    private var preparedStatements: [String: String] = [:]
    public let target: PostgresTarget

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(target: PostgresTarget, executor: ThreadExecutor, logger: Logger) {
        self.target = target
        self.executor = executor
        self.noticeSink = NoticeSink(logger: logger)
    }

    /// Opens a connection.
    /// - Throws: `PostgresError` with code `.connectionFailed`, naming the target (password hidden).
    ///
    /// A server that answers it is still starting up (SQLSTATE 57P03: a restart, a recovery) is asked again every
    /// quarter second until `target.connectTimeout` has passed since the first try.
    public static func connect(
        to target: PostgresTarget, label: String = "pipeline", logger: Logger = Logger(label: "postgres")
    ) async throws(PostgresError) -> PostgresConnection {
        let deadline = ContinuousClock.now + target.connectTimeout
        while true {
            let connection = PostgresConnection(
                target: target, executor: ThreadExecutor(name: "pg-\(label)"), logger: logger)
            do {
                try await connection.open(applicationName: label)
                return connection
            } catch  where error.meansServerStartingUp && ContinuousClock.now < deadline {
                logger.info("PostgreSQL at \(target) is starting up; connecting again")
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    private func open(applicationName: String) throws(PostgresError) {
        // libpq reads an `int` of whole seconds: a longer timeout would be refused as "invalid integer value".
        let seconds = min(Int64(Int32.max), max(1, target.connectTimeout.components.seconds))
        let pairs: [(String, String)] = [
            ("dbname", target.connectionString),
            ("connect_timeout", String(seconds)),
            ("application_name", applicationName),
            ("options", "-c TimeZone=UTC -c DateStyle=ISO"),
        ]
        let keys = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            keys.forEach { free($0) }
            values.forEach { free($0) }
        }
        var keyPointers = keys.map { UnsafePointer($0) } + [nil]
        var valuePointers = values.map { UnsafePointer($0) } + [nil]
        let connection = PQconnectdbParams(&keyPointers, &valuePointers, 1)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            executor.shutdown()
            throw PostgresError(
                code: .connectionFailed,
                message:
                    "cannot connect to PostgreSQL at \(target): \(reason.trimmingCharacters(in: .whitespacesAndNewlines))",
                hint: "check that the server is running and DATABASE_URL (or database.url) is right")
        }
        handle = connection
        PQsetNoticeProcessor(
            connection,
            { argument, message in
                guard let argument, let message else { return }
                let sink = Unmanaged<NoticeSink>.fromOpaque(argument).takeUnretainedValue()
                sink.logger.debug("postgres notice: \(String(cString: message).trimmingCharacters(in: .newlines))")
            }, Unmanaged.passUnretained(noticeSink).toOpaque())
    }

    /// Closes the connection and stops its thread. Further calls fail with `.connectionLost`.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        executor.shutdown()
    }

    /// The server's version (`SHOW server_version`, e.g. `15.14 (Debian 15.14-0+deb12u1)`).
    public func serverVersion() throws(PostgresError) -> String? {
        try query("SHOW server_version").first?.string("server_version")
    }

    /// True while the underlying socket is healthy.
    public var isOpen: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Re-establishes a broken connection (same target, same settings).
    public func reset() throws(PostgresError) {
        guard let handle else { throw closedError() }
        PQreset(handle)
        preparedStatements = [:]
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(
                code: .connectionFailed,
                message: "cannot reconnect to PostgreSQL at \(target): \(lastErrorMessage())")
        }
    }

    /// Runs one statement with bound parameters and returns its rows.
    /// - Parameters:
    ///   - sql: the statement, parameters as `$1`, `$2`, …
    ///   - parameters: values for the placeholders (`[UInt8]`/`Data` go as binary `bytea`).
    ///   - binaryResult: ask for binary results (only for `bytea`-only selects: avoids hex doubling).
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = [], binaryResult: Bool = false)
        throws(PostgresError) -> PostgresRows
    {
        guard let handle else { throw closedError() }
        let values = parameters.map(\.postgresValue)
        let result = withBoundParameters(values) { types, pointers, lengths, formats in
            PQexecParams(handle, sql, Int32(values.count), types, pointers, lengths, formats, binaryResult ? 1 : 0)
        }
        defer { PQclear(result) }
        return try rows(from: result, binary: binaryResult)
    }

    /// Runs one statement like `query(_:_:)`, but prepared on first use and reused by name afterwards, which saves
    /// parsing and planning on statements a hot loop repeats (the work queue's claim, settle and enqueue).
    @discardableResult
    public func queryPrepared(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws(PostgresError)
        -> PostgresRows
    {
        guard let handle else { throw closedError() }
        let name: String
        if let known = preparedStatements[sql] {
            name = known
        } else {
            name = "pipeline_\(preparedStatements.count + 1)"
            let prepared = PQprepare(handle, name, sql, Int32(parameters.count), nil)
            defer { PQclear(prepared) }
            _ = try rows(from: prepared, binary: false)
            preparedStatements[sql] = name
        }
        let values = parameters.map(\.postgresValue)
        let result = withBoundParameters(values) { types, pointers, lengths, formats in
            PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 0)
        }
        defer { PQclear(result) }
        return try rows(from: result, binary: false)
    }

    /// Runs several statements separated by semicolons, without parameters (migrations, `SET …`).
    public func execute(script sql: String) throws(PostgresError) {
        guard let handle else { throw closedError() }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        _ = try rows(from: result, binary: false)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// The body runs on the connection's thread, so it can issue statements without awaiting.
    @discardableResult
    public func transaction<T: Sendable>(
        _ body: @Sendable (isolated PostgresConnection) throws -> T
    ) throws -> T {
        try execute(script: "BEGIN")
        do {
            let value = try body(self)
            try execute(script: "COMMIT")
            return value
        } catch {
            if isOpen { try? execute(script: "ROLLBACK") }
            throw error
        }
    }

    // MARK: - libpq plumbing

    private func rows(from result: OpaquePointer?, binary: Bool) throws(PostgresError) -> PostgresRows {
        guard let result else { throw statementError(nil) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            break
        default:
            throw statementError(result)
        }
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var cells = [[[UInt8]?]]()
        cells.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values = [[UInt8]?]()
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, row, column))
                    let pointer = UnsafeRawPointer(PQgetvalue(result, row, column)!)
                    values.append([UInt8](UnsafeRawBufferPointer(start: pointer, count: length)))
                }
            }
            cells.append(values)
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresRows(columns: columns, cells: cells, isBinary: binary, affectedRows: affected)
    }

    private func statementError(_ result: OpaquePointer?) -> PostgresError {
        func field(_ code: Int32) -> String? {
            guard let result, let value = PQresultErrorField(result, code) else { return nil }
            return String(cString: value)
        }
        let sqlState = field(CLibPQ_DIAG_SQLSTATE)
        let message = field(CLibPQ_DIAG_MESSAGE_PRIMARY) ?? lastErrorMessage()
        let lost = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
        return PostgresError(
            code: lost ? .connectionLost : .statementFailed, message: message, sqlState: sqlState,
            detail: field(CLibPQ_DIAG_MESSAGE_DETAIL), hint: field(CLibPQ_DIAG_MESSAGE_HINT))
    }

    private func lastErrorMessage() -> String {
        guard let handle else { return "connection closed" }
        return String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func closedError() -> PostgresError {
        PostgresError(code: .connectionLost, message: "the connection to \(target) is closed")
    }
}

/// Receives server notices (libpq would print them to stderr) and logs them at debug level.
private final class NoticeSink: Sendable {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}

/// Lays out parameters the way `PQexecParams` wants them: text as C strings, bytes as binary `bytea` (oid 17).
private func withBoundParameters<R>(
    _ values: [PostgresValue],
    _ body: (UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?)
        -> R
) -> R {
    var types = [Oid](repeating: 0, count: values.count)
    var lengths = [Int32](repeating: 0, count: values.count)
    var formats = [Int32](repeating: 0, count: values.count)
    var buffers = [UnsafeMutableRawPointer?](repeating: nil, count: values.count)
    defer { buffers.forEach { free($0) } }
    for (index, value) in values.enumerated() {
        switch value {
        case .null:
            break
        case .text(let text):
            buffers[index] = UnsafeMutableRawPointer(strdup(text))
        case .bytes(let bytes):
            let buffer = malloc(max(bytes.count, 1))!
            if !bytes.isEmpty {
                bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            }
            buffers[index] = buffer
            types[index] = 17
            lengths[index] = Int32(bytes.count)
            formats[index] = 1
        }
    }
    let pointers = buffers.map { $0.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } }
    return pointers.withUnsafeBufferPointer { pointerBuffer in
        types.withUnsafeBufferPointer { typeBuffer in
            lengths.withUnsafeBufferPointer { lengthBuffer in
                formats.withUnsafeBufferPointer { formatBuffer in
                    body(
                        typeBuffer.baseAddress, pointerBuffer.baseAddress, lengthBuffer.baseAddress,
                        formatBuffer.baseAddress)
                }
            }
        }
    }
}
