import ArgumentParser
import Foundation

/// `--since DURATION` (`30m`, `24h`, `7d`): the window of recent receipts `stats`, `export`, `reprocess` and
/// `recategorize` read, ending now.
enum SinceOption {
    /// - Parameter example: durations for the message, such as `30m or 7d`.
    /// - Throws: `ValidationError` naming the flag and the value when `text` is no duration.
    static func validate(_ text: String?, example: String) throws {
        if let text, parseDuration(text) == nil {
            throw ValidationError("--since must be a duration such as \(example) (got \"\(text)\").")
        }
    }

    /// When the window starts: `now` minus the duration; nil without `--since` (or with a value `validate` refuses).
    static func start(_ text: String?, now: Date = Date()) -> Date? {
        text.flatMap(parseDuration).map { now.addingTimeInterval(-Double($0.components.seconds)) }
    }
}
