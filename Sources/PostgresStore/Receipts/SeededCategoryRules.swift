import Foundation
import PipelineCore

/// The category rules a fresh database starts with: the `INSERT INTO category_rules` rows of the migrations compiled
/// into this binary, read from their SQL, so `pipeline bench` categorizes as `pipeline work` does on a new database
/// without a database of its own.
public enum SeededCategoryRules {
    /// Every seeded rule, in migration order (a later row for the same target and pattern is skipped, as
    /// `ON CONFLICT DO NOTHING` skips it).
    /// - Throws: `ReviewError.invalidValue` naming the migration and the rule when a row's category is not one its
    ///   target allows.
    public static var rules: [CategoryRule] {
        get throws(ReviewError) { try rules(in: Migration.embedded) }
    }

    static func rules(in migrations: [Migration]) throws(ReviewError) -> [CategoryRule] {
        var seen = Set<String>()
        var rules: [CategoryRule] = []
        for migration in migrations {
            for statement in migration.sql.components(separatedBy: ";")
            where statement.range(of: "INSERT INTO category_rules", options: .caseInsensitive) != nil {
                for rule in try rows(statement, of: migration)
                where seen.insert(rule.target.rawValue + "\u{0}" + rule.pattern).inserted {
                    rules.append(rule)
                }
            }
        }
        return rules
    }

    /// `('merchant', 'pattern', 'Category', 50)` tuples; `''` inside a literal is one quote.
    static func rows(_ statement: String, of migration: Migration) throws(ReviewError) -> [CategoryRule] {
        let pattern = #"\(\s*'(merchant|keyword|item)'\s*,\s*'((?:[^']|'')*)'\s*,\s*'((?:[^']|'')*)'\s*,\s*(\d+)\s*\)"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let text = statement as NSString
        var rules: [CategoryRule] = []
        for match in expression.matches(in: statement, range: NSRange(location: 0, length: text.length)) {
            func group(_ index: Int) -> String {
                text.substring(with: match.range(at: index)).replacingOccurrences(of: "''", with: "'")
            }
            guard let target = CategoryRule.Target(rawValue: group(1)), let priority = Int(group(4)) else { continue }
            do {
                rules.append(
                    try CategoryRule(target: target, pattern: group(2), categoryNamed: group(3), priority: priority))
            } catch {
                throw ReviewError(
                    .invalidValue,
                    "migration \(migration.name) seeds the \(target.rawValue) rule \"\(group(2))\" with an "
                        + "\(error.message); fix the migration")
            }
        }
        return rules
    }
}
