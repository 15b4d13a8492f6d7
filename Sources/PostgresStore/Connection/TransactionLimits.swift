/// The time limits of a transaction that takes locks other workers wait on (a job's settlement, an expense's
/// commit), set before its first lock: a worker stopped or cut off mid-transaction must not hold them for hours.
public enum TransactionLimits {
    /// How long the server lets the transaction sit idle before it ends the session, freeing every lock it held.
    public static let idleSeconds = 5
    /// How long one statement (a lock wait included) may run before the server cancels it.
    public static let statementSeconds = 60

    /// Sets both limits for the rest of the current transaction.
    static func apply(in connection: isolated PostgresConnection) throws(PostgresError) {
        try connection.execute(
            script: "SET LOCAL idle_in_transaction_session_timeout = '\(idleSeconds)s'; "
                + "SET LOCAL statement_timeout = '\(statementSeconds)s'")
    }
}
