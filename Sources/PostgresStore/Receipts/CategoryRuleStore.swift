import PipelineCore

/// Reads the editable categorization rules (`category_rules`).
public enum CategoryRuleStore {
    /// Every rule, lowest priority number first.
    public static func load(from connection: PostgresConnection) async throws -> [CategoryRule] {
        let rows = try await connection.query(
            "SELECT match_on, pattern, category, priority FROM category_rules ORDER BY priority, id")
        return try rows.compactMap { row in
            guard let target = try row.string("match_on").flatMap(CategoryRule.Target.init(rawValue:)),
                let pattern = try row.string("pattern"), let category = try row.string("category")
            else { return nil }
            return CategoryRule(
                target: target, pattern: pattern, category: category, priority: try row.int("priority") ?? 100)
        }
    }
}
