import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore

extension CommandContext {
    /// Runs `body` with the review store over a migrated session.
    func withReviewStore<T>(label: String, _ body: (any ReviewStore) async throws -> T) async throws -> T {
        try await withMigratedSession(label: label) { session in try await body(session.reviewStore) }
    }

    /// Runs `body` with a session over a pool of `review.databaseConnections` connections, for a server's pages and
    /// uploads, after applying pending migrations when `database.migrateOnStart` is set. The pool reconnects after a
    /// database restart, so the pages recover without the server restarting.
    func withReviewPool<T>(label: String, _ body: (PostgresSession) async throws -> T) async throws -> T {
        try await withMigratedSession(label: label) { _ in }
        return try await database(quietly: true).pooledSession(
            label: label, size: configuration.review.databaseConnections, body)
    }

    /// Who is correcting, for the audit trail: `$USER`, else `unknown`.
    var reviewer: String {
        let user = environment["USER"] ?? environment["LOGNAME"] ?? ""
        return user.isEmpty ? "unknown" : user
    }
}

/// Applies one review action to each receipt id in turn; a refused id is reported and the others go on.
/// - Throws: `ExitCode(1)` at the end when any id was refused.
func reviewEach(_ ids: [Int64], _ action: (Int64) async throws -> String) async throws {
    var failed = 0
    for id in ids {
        do {
            print(try await action(id))
        } catch let error as ReviewError {
            printError("error: \(error.message)")
            failed += 1
        }
    }
    if failed > 0 { throw ExitCode(1) }
}

/// A correction in one line: `total 12.03 → 12.30 (by alice)`.
func describe(_ correction: Correction) -> String {
    "\(correction.field.rawValue) \(correction.machineValue ?? "–") → \(correction.personValue ?? "–") "
        + "(by \(correction.correctedBy))"
}

/// The checks over a receipt's corrected values in one line, for `correct` and `show`:
/// `checks with the corrections: balanced: line items sum to 9.99, matching the printed total 9.99`.
func describeChecks(_ checks: ReconciliationResult) -> String {
    let findings = checks.findings.map(\.message)
    return "checks with the corrections: \(checks.outcome.rawValue)"
        + (findings.isEmpty ? "" : ": " + findings.joined(separator: "; "))
}

/// Parses a closed set's raw value from a flag, naming the accepted values when it is not one.
func parseChoice<Choice: RawRepresentable & CaseIterable>(_ text: String, flag: String) throws -> Choice
where Choice.RawValue == String {
    guard let choice = Choice(rawValue: text) else {
        let accepted = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        throw ValidationError("\(flag) must be one of \(accepted) (got \"\(text)\").")
    }
    return choice
}
