import PipelineCore

/// Reads the editable categorization rules (`category_rules`).
public enum CategoryRuleStore {
    /// Every rule, lowest priority number first.
    public static func load(from connection: PostgresConnection) async throws -> [CategoryRule] {
        let rows = try await connection.query(
            "SELECT match_on, pattern, category, priority FROM category_rules ORDER BY priority, id")
        return try rows.map { row in
            CategoryRule(
                target: try row.requiredValue("match_on", as: CategoryRule.Target.self),
                pattern: try row.requiredString("pattern"), category: try row.requiredString("category"),
                priority: try row.requiredInt("priority"))
        }
    }
}
