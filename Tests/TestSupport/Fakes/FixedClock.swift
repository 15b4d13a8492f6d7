import Foundation
import PipelineCore

extension PipelineClock {
    /// A clock that always reads `date`: every stamp a test sees is that one.
    public static func fixed(_ date: Date) -> PipelineClock {
        PipelineClock(now: { date })
    }
}
