import Foundation
import PipelineCore

/// The bench result as a plain-text table for the terminal.
public enum BenchTextReport {
    public static func render(_ summary: BenchSummary) -> String {
        let columns = summary.datasets + [summary.overall]
        var rows: [[String]] = [["field"] + columns.map(\.dataset)]
        for field in ScoredField.allCases {
            guard columns.contains(where: { $0.fields[field] != nil }) else { continue }
            rows.append([field.rawValue] + columns.map { cell($0.fields[field]) })
        }
        if columns.contains(where: { $0.itemReceipts > 0 }) {
            rows.append(
                ["items P / R / F1"]
                    + columns.map {
                        $0.itemReceipts == 0
                            ? "–"
                            : String(format: "%.2f / %.2f / %.2f", $0.items.precision, $0.items.recall, $0.items.f1)
                    })
        }
        if columns.contains(where: { $0.categoryOther.scored > 0 }) {
            rows.append(["category"] + columns.map { cell($0.category) })
            rows.append(["category Other share"] + columns.map { cell($0.categoryOther) })
        }
        rows.append(
            ["auto-accepted"] + columns.map { String(format: "%.2f (%d)", $0.autoAcceptedShare, $0.autoAccepted) })
        rows.append(["touches /100"] + columns.map { String(format: "%.1f", $0.touchesPer100) })
        rows.append(
            ["silent errors /100"]
                + columns.map { String(format: "%.1f (%d)", $0.silentErrorsPer100, $0.silentErrors) })
        rows.append(
            ["total right when accepted"]
                + columns.map {
                    String(format: "%.3f (%d/%d)", $0.trust, $0.autoAcceptedTotalCorrect, $0.autoAcceptedWithTotal)
                })
        for (index, point) in summary.overall.tradeOff.enumerated() {
            let marked = summary.configuredPoint == point.maxSilentPer100 ? " (configured)" : ""
            rows.append(
                ["budget \(budgetText(point.maxSilentPer100))\(marked): touches / silent"]
                    + columns.map { column in
                        index < column.tradeOff.count
                            ? String(
                                format: "%.1f / %.1f", column.tradeOff[index].touchesPer100,
                                column.tradeOff[index].silentPer100) : "–"
                    })
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { index, text in
                index == 0
                    ? text.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - text.count) + text
            }.joined(separator: "  ")
        }
        lines.insert(String(repeating: "-", count: lines[0].count), at: 1)
        let latency = summary.latency
        lines.append(
            String(
                format: "latency image→draft: p50 %.3f s, p95 %.3f s, p99 %.3f s, max %.3f s (%d receipts)",
                latency.p50, latency.p95, latency.p99, latency.max, summary.receipts.count))
        return lines.joined(separator: "\n")
    }

    /// A budget as written in `pipeline.yaml`: `0.25`, `1`, `5`.
    static func budgetText(_ budget: Double) -> String {
        budget == budget.rounded() ? String(Int(budget)) : String(budget)
    }

    static func cell(_ accuracy: FieldAccuracy?) -> String {
        guard let accuracy, accuracy.scored > 0 else { return "–" }
        return String(format: "%.2f (%d/%d)", accuracy.accuracy, accuracy.correct, accuracy.scored)
    }
}
