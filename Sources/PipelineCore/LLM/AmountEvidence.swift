import Foundation

/// An LLM amount that the OCR text does not support.
public struct UnsupportedAmount: Sendable, Equatable, CustomStringConvertible {
    /// Field path, e.g. `amount` or `items[2].totalPrice`.
    public let path: String
    public let value: Decimal

    public init(path: String, value: Decimal) {
        self.path = path
        self.value = value
    }

    public var description: String { "\(path) = \(value) does not appear in the OCR text" }
}

/// The hallucination guard: every amount the LLM returns must be printed on the receipt.
public enum AmountEvidence {
    /// The amounts of `receipt` not found among the numbers of `ocrText`.
    ///
    /// OCR digit confusions are allowed (`O`→0, `l`/`I`/`|`→1, `S`→5, `B`→8, `Z`→2), as are either decimal
    /// separator, thousands separators, a sign or parentheses. A printed number without a separator counts only
    /// with three or more digits (`2 x Latte` does not support a tip of 2.00). Zero amounts need no evidence
    /// (models write 0 for absent tips and fees).
    public static func unsupportedAmounts(in receipt: LLMReceipt, ocrText: String) -> [UnsupportedAmount] {
        unsupportedAmounts(in: receipt, printed: printedAmounts(in: ocrText))
    }

    /// The amounts of `receipt` not among `printed`, what the page's numbers could stand for.
    static func unsupportedAmounts(in receipt: LLMReceipt, printed: Set<Decimal>) -> [UnsupportedAmount] {
        receipt.amounts.compactMap { path, value in
            let magnitude = value < 0 ? -value : value
            return magnitude == 0 || printed.contains(magnitude) ? nil : UnsupportedAmount(path: path, value: value)
        }
    }

    /// Every value a number printed in `text` could stand for.
    static func printedAmounts(in text: String) -> Set<Decimal> {
        var values = Set<Decimal>()
        for token in numberTokens(in: text) where token.contains(where: { $0 == "." || $0 == "," }) || token.count >= 3
        {
            for notation in [DecimalNotation.point, .comma] {
                if case .success(let value)? = MoneyText.amount(of: token, notation: notation) {
                    values.insert(value < 0 ? -value : value)
                }
            }
        }
        return values
    }

    /// Runs of digits, separators and digit look-alikes holding at least one real digit, look-alikes mapped.
    static func numberTokens(in text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var hasDigit = false
        func finish() {
            let trimmed = current.trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
            if hasDigit, !trimmed.isEmpty { tokens.append(trimmed) }
            current = ""
            hasDigit = false
        }
        for character in text {
            if let digit = character.isASCII && character.isNumber ? character : confusions[character] {
                current.append(digit)
                hasDigit = hasDigit || character.isNumber
            } else if character == "." || character == "," {
                current.append(character)
            } else if character == " ", current.last.map({ $0 == "." || $0 == "," }) == true {
                continue  // `12. 50` or `12 ,50`: OCR splits around separators.
            } else {
                finish()
            }
        }
        finish()
        return tokens
    }

    private static let confusions: [Character: Character] = [
        "O": "0", "o": "0", "D": "0", "Q": "0", "l": "1", "I": "1", "|": "1", "i": "1", "S": "5", "s": "5", "B": "8",
        "Z": "2", "z": "2", "G": "6", "g": "9",
    ]
}
