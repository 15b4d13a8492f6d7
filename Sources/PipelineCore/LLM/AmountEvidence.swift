import Foundation

/// What the page's printed numbers could stand for, so that the merge takes only amounts printed on the receipt
/// (the hallucination guard, `DraftMerge`).
public enum AmountEvidence {
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
