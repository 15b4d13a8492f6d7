import PipelineCore
import Synchronization

/// A vision model that tells a person, once per run, when the account itself fails (key refused, no access, quota
/// spent), and remembers it so `work` can exit 1: every other receipt would fail the same way, and a finding on
/// each expense is easy to miss.
final class AccountFailureWatch: VisionModel {
    private let model: any VisionModel
    private let warn: @Sendable (String) -> Void
    private let first = Mutex<VisionModelError?>(nil)

    /// - Parameter warn: prints the one warning line (standard error in `work`).
    init(watching model: any VisionModel, warn: @escaping @Sendable (String) -> Void) {
        self.model = model
        self.warn = warn
    }

    /// The first account failure of this run, if any.
    var accountFailure: VisionModelError? { first.withLock { $0 } }

    func readReceipt(_ request: VisionRequest) async throws -> VisionReply {
        do {
            return try await model.readReceipt(request)
        } catch let error as VisionModelError where error.isAccountFailure {
            let isFirst = first.withLock { stored in
                defer { if stored == nil { stored = error } }
                return stored == nil
            }
            if isFirst {
                warn(
                    "warning: the LLM account failed (\(error.code.rawValue)): \(error.message). Receipts keep their "
                        + "rules reading and go to review; fix the key or quota, then re-run them through the model.")
            }
            throw error
        }
    }
}
