import Foundation
import PipelineCore

/// Records a batch of finished attempts inside one transaction.
///
/// Completions run the caller's writes under a savepoint each, so one failing write fails only its own job.
/// Only jobs whose lease `owner` still holds are touched (they are locked first); the rest are reported lost.
struct JobSettler {
    let owner: UUID
    let policy: RetryPolicy

    func settle(_ settlements: [JobSettlement<PostgresWrites>], in connection: isolated PostgresConnection) throws
        -> SettlementReport
    {
        // Before the first lock (the held jobs' rows): a worker stopped mid-settlement frees them within the limit.
        try TransactionLimits.apply(in: connection)
        var report = SettlementReport()
        var completedWithoutWrites = [Int64]()
        var completedWithWrites = [(ClaimedJob, PostgresWrites)]()
        var failures = [(ClaimedJob, JobFailure)]()
        var releases = [Int64]()
        for settlement in settlements {
            switch settlement.outcome {
            case .completed(nil): completedWithoutWrites.append(settlement.job.id)
            case .completed(let writes?): completedWithWrites.append((settlement.job, writes))
            case .failed(let failure): failures.append((settlement.job, failure))
            case .released: releases.append(settlement.job.id)
            }
        }

        var done = try update(QueueStatements.complete, completedWithoutWrites, in: connection)
        if !completedWithWrites.isEmpty {
            let held = Set(try update(QueueStatements.lockHeld, completedWithWrites.map(\.0.id), in: connection))
            var written = [Int64]()
            for (job, writes) in completedWithWrites where held.contains(job.id) {
                if let failure = try runWrites(writes, in: connection) {
                    failures.append((job, failure))
                } else {
                    written.append(job.id)
                }
            }
            done += try update(QueueStatements.complete, written, in: connection)
        }
        report.done = done

        for (job, failure) in failures {
            let decision = policy.decision(
                attempt: job.attempt, maxAttempts: job.maxAttempts, failure: failure, jitter: Double.random(in: 0...1))
            let (state, delay): (JobState, Duration) =
                switch decision {
                case .dead: (.dead, .zero)
                case .retry(let after): (.ready, after)
                }
            let parameters: [any PostgresEncodable] = [
                job.id, owner, state.rawValue, SQLLiterals.interval(delay), failure.stage.rawValue, failure.message,
                failure.isPermanent,
            ]
            guard try connection.queryPrepared(QueueStatements.fail, parameters).count == 1 else { continue }
            report.failures[job.id] = failure
            if state == .dead { report.dead.append(job.id) } else { report.retried.append(job.id) }
        }

        report.released = try update(QueueStatements.release, releases, in: connection)
        if !report.released.isEmpty || !report.retried.isEmpty {
            try connection.queryPrepared(QueueStatements.notify, [PostgresWorkQueue.channel])
        }
        let settled = Set(report.done + report.retried + report.dead + report.released)
        report.lost = settlements.map(\.job.id).filter { !settled.contains($0) }
        return report
    }

    /// Runs one job's writes under a savepoint; a failure rolls back only them and comes back classified: a value
    /// that cannot be stored (`PostgresError.isDataException`) is permanent, anything else retryable.
    private func runWrites(_ writes: PostgresWrites, in connection: isolated PostgresConnection) throws -> JobFailure? {
        try connection.execute(script: "SAVEPOINT job_writes")
        do {
            try writes(connection)
            try connection.execute(script: "RELEASE SAVEPOINT job_writes")
            return nil
        } catch let error as PostgresError where error.isTransient {
            throw error
        } catch {
            try connection.execute(script: "ROLLBACK TO SAVEPOINT job_writes; RELEASE SAVEPOINT job_writes")
            if let error = error as? PostgresError, error.isDataException {
                return .permanent(
                    stage: .store,
                    "a value of this receipt's expense cannot be stored: \(error); every attempt would read and "
                        + "fail the same way, so it was not retried; report it with `pipeline show` of the receipt")
            }
            return JobFailure(classifying: error, stage: .store)
        }
    }

    /// Runs a `$1 ids, $2 owner` statement returning ids; skips the round trip when there are none.
    private func update(_ sql: String, _ ids: [Int64], in connection: isolated PostgresConnection) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let rows = try connection.queryPrepared(sql, [SQLLiterals.array(ids), owner])
        return try rows.map { row throws(PostgresError) in try row.requiredID("id") }
    }
}
