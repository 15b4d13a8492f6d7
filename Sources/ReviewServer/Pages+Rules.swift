import Foundation
import PipelineCore

/// The category rules: list, add, edit, test against stored expenses, delete.
extension Pages {
    static func rules(
        _ rules: [StoredCategoryRule], test: (CategoryRule, RuleTest)?, csrf: String, _ navigation: Navigation
    ) -> HTML {
        let rows = rules.map { stored in
            HTML(
                """
                <tr><td>\(stored.id)</td><td><form method="post" action="/rules" class="rule">
                <input type="hidden" name="csrf" value="\(csrf)"><input type="hidden" name="id" \
                value="\(String(stored.id))">
                \(targetSelect(stored.rule.target))<input name="pattern" value="\(stored.rule.pattern)">
                <input name="category" value="\(stored.rule.categoryName)" list="categories">
                <input name="priority" value="\(String(stored.rule.priority))" size="4">
                <button name="action" value="save">save</button><button name="action" value="test">test</button>
                <button name="action" value="delete" data-confirm="Delete this rule?">delete</button></form></td>
                <td>\(stored.learnedFrom.map { "receipt \($0)" } ?? "")</td></tr>
                """)
        }
        let testResult: HTML =
            test.map { rule, result in
                let matched = result.matched.prefix(50).map { sample in
                    let change = result.changes.first { $0.receiptID == sample.receiptID }
                    return HTML(
                        """
                        <li><a href="/receipts/\(sample.receiptID)">receipt \(sample.receiptID)</a> \
                        \(sample.merchant ?? "(no merchant)")\
                        \(change.map { HTML(": \(sample.category.rawValue) → \($0.category.rawValue)") } ?? "")</li>
                        """)
                }
                return HTML(
                    """
                    <section id="rule-test"><h2>Test of \(rule.target.rawValue) “\(rule.pattern)” → \
                    \(rule.categoryName)</h2>
                    <p>Matches \(result.matched.count) of \(result.scanned) stored receipts; would re-file \
                    \(result.changes.count).
                    Nothing was saved.</p><ul>\(matched)</ul></section>
                    """)
            } ?? ""
        let categories = (ExpenseCategory.allCases.map(\.rawValue) + ItemCategory.allCases.map(\.rawValue))
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            .map { HTML("<option value=\"\($0)\">") }
        return layout(
            "Category rules",
            """
            <h1>Category rules</h1>
            <p>The first matching rule (lowest priority number) files an expense. Merchant and keyword rules take an
            expense category; item rules an item category. Test a rule against stored receipts before saving it;
            apply saved rules to stored receipts with <code>pipeline recategorize</code>.</p>
            \(testResult)
            <h2>New rule</h2><form method="post" action="/rules" class="rule" id="new-rule">
            <input type="hidden" name="csrf" value="\(csrf)">\(targetSelect(.merchant))
            <input name="pattern" placeholder="words to match" required>
            <input name="category" placeholder="category" list="categories" required>
            <input name="priority" value="50" size="4">
            <button name="action" value="test" id="test-rule">test</button><button name="action" value="save" \
            id="save-rule">save</button></form>
            <datalist id="categories">\(categories)</datalist>
            <h2>Rules</h2><table id="rules"><thead><tr><th>id</th><th>rule</th><th>learned from</th></tr></thead>\
            <tbody>\(rows)</tbody></table>
            """, navigation)
    }

    private static func targetSelect(_ selected: CategoryRule.Target) -> HTML {
        let options = CategoryRule.Target.allCases.map { target in
            HTML(
                """
                <option value=\"\(target.rawValue)\"\(target == selected ? " selected" : "")>\(target.rawValue)</option>
                """
            )
        }
        return "<select name=\"match_on\">\(options)</select>"
    }
}
