import Foundation

/// Normalized comparison of names (merchants, items) as the bench scores them (docs/behaviour.md).
public enum TextSimilarity {
    /// Upper-cased letters and digits only: case, punctuation and spaces do not count.
    public static func normalized(_ text: String) -> String {
        String(text.uppercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// Upper-cased words of letters and digits, one space between them (`Grand-Café 12` → `GRAND CAFÉ 12`): how
    /// categorization and learned merchants compare text.
    public static func words(_ text: String) -> String {
        text.uppercased().components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }.joined(
            separator: " ")
    }

    /// 1 − edit distance / longer length, over normalized text; 1 for two empty strings.
    public static func similarity(_ a: String, _ b: String) -> Double {
        let left = Array(normalized(a))
        let right = Array(normalized(b))
        let longest = max(left.count, right.count)
        guard longest > 0 else { return 1 }
        return 1 - Double(editDistance(left, right)) / Double(longest)
    }

    /// Edits turning `left` into `right`; with `withinRight`, into the closest substring of `right` (a match may
    /// start and end anywhere in it).
    static func editDistance(_ left: [Character], _ right: [Character], withinRight: Bool = false) -> Int {
        guard !left.isEmpty else { return withinRight ? 0 : right.count }
        guard !right.isEmpty else { return left.count }
        var previous = withinRight ? [Int](repeating: 0, count: right.count + 1) : Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for (i, leftCharacter) in left.enumerated() {
            current[0] = i + 1
            for (j, rightCharacter) in right.enumerated() {
                let substitution = previous[j] + (leftCharacter == rightCharacter ? 0 : 1)
                current[j + 1] = min(substitution, previous[j + 1] + 1, current[j] + 1)
            }
            swap(&previous, &current)
        }
        return withinRight ? previous.min() ?? left.count : previous[right.count]
    }
}
