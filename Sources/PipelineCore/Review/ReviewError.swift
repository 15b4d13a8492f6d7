/// Why a review action was refused, in words a person can act on.
public struct ReviewError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No receipt (or rule) with that id.
        case notFound = "not_found"
        /// The receipt has no expense yet (still queued, or its job is dead).
        case noExpense = "no_expense"
        /// A value does not parse or is out of range.
        case invalidValue = "invalid_value"
    }

    public let code: Code
    /// What was wrong and what to do.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// No receipt has this id.
    public static func unknownReceipt(_ id: Int64) -> ReviewError {
        ReviewError(.notFound, "no receipt has id \(id); list the queue with: pipeline review list")
    }

    /// The receipt exists but has no expense to review yet.
    public static func noExpense(_ id: Int64) -> ReviewError {
        ReviewError(
            .noExpense, "receipt \(id) has no expense yet: its job is still queued or failed; see pipeline show \(id)")
    }
}
