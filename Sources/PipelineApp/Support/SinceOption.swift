import ArgumentParser
import Foundation

/// `--since DURATION` (`30m`, `24h`, `7d`): the window of recent receipts `stats`, `export`, `reprocess` and
/// `recategorize` read, ending now.
enum SinceOption {
    /// - Parameter example: durations for the message, such as `30m or 7d`.
    /// - Throws: `ValidationError` naming the flag and the value when `text` is no duration.
    static func validate(_ text: String?, example: String) throws {
        guard let text else { return }
        guard let duration = parseDuration(text) else {
            throw ValidationError("--since must be a duration such as \(example) (got \"\(text)\").")
        }
        guard duration <= longest else {
            throw ValidationError(
                "--since reaches back at most \(formatDuration(longest)) (got \"\(text)\"); leave it out for everything."
            )
        }
    }

    /// The longest window: a century, far inside what the database's timestamps hold.
    static let longest = Duration.seconds(36_500 * 86_400)

    /// When the window starts: `now` minus the duration; nil without `--since` (or with a value `validate` refuses).
    static func start(_ text: String?, now: Date = Date()) -> Date? {
        text.flatMap(parseDuration).map { now.addingTimeInterval(-Double($0.components.seconds)) }
    }
}
