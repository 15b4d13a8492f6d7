import Foundation

/// The stages a receipt goes through, as stored in `stage_timings.stage`.
public enum Stage: String, Sendable, CaseIterable, Codable {
    case load, decode, normalize, ocr, compress, extract, llm, repair, reconcile, categorize, commit
}

/// How one stage of one attempt ended, as stored in `stage_timings.outcome`.
public enum StageOutcome: String, Sendable, Codable {
    case ok, retry, failed, review, cancelled
}

/// One stage's duration and outcome in one attempt.
public struct StageTiming: Sendable, Equatable, Codable {
    public var stage: Stage
    public var startedAt: Date
    public var duration: Duration
    public var outcome: StageOutcome
    /// The failure message or review reason, when there is one.
    public var detail: String?

    public init(stage: Stage, startedAt: Date, duration: Duration, outcome: StageOutcome = .ok, detail: String? = nil) {
        self.stage = stage
        self.startedAt = startedAt
        self.duration = duration
        self.outcome = outcome
        self.detail = detail
    }

    /// The duration in milliseconds, as stored.
    public var milliseconds: Double { duration.fractionalMilliseconds }
}

/// Times stages in order: each `measure` call records one `StageTiming`.
public struct StageClock: Sendable {
    public private(set) var timings: [StageTiming] = []
    private let clock: PipelineClock

    public init(clock: PipelineClock = .system) {
        self.clock = clock
    }

    /// Runs `body`, recording its stage, start, duration and outcome (`failed` when it throws).
    public mutating func measure<T>(_ stage: Stage, _ body: () async throws -> T) async rethrows -> T {
        let startedAt = clock.now()
        let start = ContinuousClock.now
        do {
            let value = try await body()
            timings.append(StageTiming(stage: stage, startedAt: startedAt, duration: ContinuousClock.now - start))
            return value
        } catch {
            timings.append(
                StageTiming(
                    stage: stage, startedAt: startedAt, duration: ContinuousClock.now - start, outcome: .failed,
                    detail: String(describing: error)))
            throw error
        }
    }

    /// Records stages measured elsewhere (inside the OCR engine).
    public mutating func record(_ timings: [StageTiming]) { self.timings += timings }
}
