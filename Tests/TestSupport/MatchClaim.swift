import Foundation

/// What a finding claims when it says two amounts match ("… is 12.40, matching the printed total 12.40"): the last
/// amount written before the word and the first one after it. Read from the words alone, so a test can hold a
/// finding to what it says.
public struct MatchClaim: Sendable, Equatable {
    public var left: Decimal
    public var right: Decimal

    /// The claim in `message`, nil when it says nothing matches or names no amount on either side.
    public init?(_ message: String) {
        guard let word = message.range(of: "match") else { return nil }
        let amounts = { (text: Substring) -> [Decimal] in
            text.matches(of: /-?\d+(?:\.\d+)?/).compactMap {
                Decimal(string: String($0.output), locale: Locale(identifier: "en_US_POSIX"))
            }
        }
        guard let left = amounts(message[..<word.lowerBound]).last,
            let right = amounts(message[word.upperBound...]).first
        else { return nil }
        self.left = left
        self.right = right
    }

    /// Whether the two amounts are within `tolerance` of each other.
    public func holds(within tolerance: Decimal) -> Bool {
        abs(left - right) <= tolerance
    }
}
