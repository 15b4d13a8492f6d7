import CTesseract
import Synchronization

/// Keeps Leptonica's own messages off the operator's terminal (it writes errors to stderr by default).
package enum LeptonicaDiagnostics {
    private static let isSilenced = Mutex(false)

    /// Silences Leptonica for the whole process; idempotent and thread-safe.
    package static func silence() {
        isSilenced.withLock { done in
            guard !done else { return }
            _ = setMsgSeverity(l_int32(L_SEVERITY_NONE))
            done = true
        }
    }
}
