import Foundation
import PipelineCore

/// The category rules a fresh database starts with: the `INSERT INTO category_rules` rows of the migrations compiled
/// into this binary, read from their SQL, so `pipeline bench` categorizes as `pipeline work` does on a new database
/// without a database of its own.
public enum SeededCategoryRules {
    /// Every seeded rule, in migration order (a later row for the same target and pattern is skipped, as
    /// `ON CONFLICT DO NOTHING` skips it).
    public static var rules: [CategoryRule] { rules(in: Migration.embedded) }

    static func rules(in migrations: [Migration]) -> [CategoryRule] {
        var seen = Set<String>()
        var rules: [CategoryRule] = []
        for migration in migrations {
            for statement in migration.sql.components(separatedBy: ";")
            where statement.range(of: "INSERT INTO category_rules", options: .caseInsensitive) != nil {
                for rule in rows(statement) where seen.insert(rule.target.rawValue + "\u{0}" + rule.pattern).inserted {
                    rules.append(rule)
                }
            }
        }
        return rules
    }

    /// `('merchant', 'pattern', 'Category', 50)` tuples; `''` inside a literal is one quote.
    static func rows(_ statement: String) -> [CategoryRule] {
        let pattern = #"\(\s*'(merchant|keyword|item)'\s*,\s*'((?:[^']|'')*)'\s*,\s*'((?:[^']|'')*)'\s*,\s*(\d+)\s*\)"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let text = statement as NSString
        return expression.matches(in: statement, range: NSRange(location: 0, length: text.length)).compactMap {
            match in
            func group(_ index: Int) -> String {
                text.substring(with: match.range(at: index)).replacingOccurrences(of: "''", with: "'")
            }
            guard let target = CategoryRule.Target(rawValue: group(1)), let priority = Int(group(4)) else { return nil }
            return CategoryRule(target: target, pattern: group(2), category: group(3), priority: priority)
        }
    }
}
