import Testing

@testable import PostgresStore

/// A client program that failed without a word (`pg_dump` killed by a signal prints nothing) is still named with
/// how it ended, never an empty reason.
@Suite struct BackupErrorTests {
    @Test func aSilentFailureSaysHowTheProgramEnded() {
        #expect(BackupError.reason(status: 137, output: "") == "ended by signal 9")
        #expect(BackupError.reason(status: 1, output: " \n") == "exited with status 1 and printed nothing")
        #expect(BackupError.reason(status: 1, output: "pg_dump: error: disk full\n") == "pg_dump: error: disk full")
    }
}
