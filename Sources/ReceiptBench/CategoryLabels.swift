import Foundation
import PipelineCore

/// The hand-written categories of the bench fixtures (`bench/category-labels.tsv`, docs/categories.md): per fixture,
/// its expense category and one item category per labeled item. Lines: `set`, fixture name (its image path under the
/// fixture folder), expense category, item categories joined by `|`; `#` starts a comment.
public struct CategoryLabels: Sendable, Equatable {
    /// One fixture's categories.
    public struct Label: Sendable, Equatable {
        public var expense: ExpenseCategory
        public var items: [ItemCategory]
    }

    /// By fixture name (`sroie/sroie_044.jpg`).
    public var labels: [String: Label]

    /// Parses the file's text.
    /// - Throws: `CategoryLabelsError` naming the line and what is wrong with it.
    public init(parsing text: String) throws(CategoryLabelsError) {
        var labels: [String: Label] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else {
                throw CategoryLabelsError(
                    line: index + 1, problem: "expected 4 tab-separated fields, got \(fields.count)")
            }
            guard let expense = ExpenseCategory(rawValue: fields[2]) else {
                throw CategoryLabelsError(line: index + 1, problem: "unknown expense category \"\(fields[2])\"")
            }
            var items: [ItemCategory] = []
            for name in fields[3].split(separator: "|").map(String.init) {
                guard let item = ItemCategory(rawValue: name) else {
                    throw CategoryLabelsError(line: index + 1, problem: "unknown item category \"\(name)\"")
                }
                items.append(item)
            }
            labels[fields[1]] = Label(expense: expense, items: items)
        }
        self.labels = labels
    }

    public subscript(name: String) -> Label? { labels[name] }
}

/// A category labels file that cannot be read.
public struct CategoryLabelsError: Error, Sendable, CustomStringConvertible {
    public var line: Int
    public var problem: String

    public var description: String {
        "category labels line \(line): \(problem); fix the line (see docs/categories.md for the format)"
    }
}
