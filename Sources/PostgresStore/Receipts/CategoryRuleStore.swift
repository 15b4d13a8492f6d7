import PipelineCore

/// Reads the editable categorization rules (`category_rules`).
public enum CategoryRuleStore {
    /// Every rule, lowest priority number first.
    /// - Throws: `PostgresError.decodingFailed` naming the rule when a stored category is not one its target allows.
    public static func load(from connection: PostgresConnection) async throws -> [CategoryRule] {
        let rows = try await connection.query(
            "SELECT id, match_on, pattern, category, priority FROM category_rules ORDER BY priority, id")
        return try rows.map(rule)
    }

    /// The rule in a `category_rules` row (`id`, `match_on`, `pattern`, `category`, `priority`).
    /// - Throws: `PostgresError.decodingFailed` naming the rule and what to do when its category is not one its
    ///   target allows (a row written past `CategoryRule` validation, or a category this program no longer has).
    static func rule(_ row: PostgresRow) throws(PostgresError) -> CategoryRule {
        let id = try row.requiredID("id")
        let target = try row.requiredValue("match_on", as: CategoryRule.Target.self)
        let pattern = try row.requiredString("pattern")
        let category = try row.requiredString("category")
        let priority = try row.requiredInt("priority")
        do {
            return try CategoryRule(target: target, pattern: pattern, categoryNamed: category, priority: priority)
        } catch {
            throw PostgresError(
                code: .decodingFailed,
                message: "category rule \(id) (\(target.rawValue) \"\(pattern)\"): \(error.message); give it a known "
                    + "category with pipeline categories add --\(target.rawValue) \"\(pattern)\" CATEGORY, or remove "
                    + "it with pipeline categories remove \(id)")
        }
    }
}
