import Foundation
import PipelineCore

/// The review queue: receipts needing review, filtered by reason, a page at a time.
extension Pages {
    static func queue(_ queue: ReviewQueue, reason: ReviewReason?, offset: Int, _ navigation: Navigation) -> HTML {
        let filters =
            [HTML("<a href=\"/queue\" class=\"\(reason == nil ? "on" : "")\">all (\(queue.total))</a>")]
            + ReviewReason.allCases.map { item in
                HTML(
                    """
                    <a href=\"/queue?reason=\(item.rawValue)\" class=\"\(reason == item ? "on" : "")\">\(item.title) \
                    (\(queue.counts[item] ?? 0))</a>
                    """
                )
            }
        let rows = queue.rows.map { row in
            HTML(
                """
                <tr><td><a href="/receipts/\(row.receiptID)">\(row.receiptID)</a></td>\
                <td class="wide-only">\(row.fileName)</td>
                <td class="text">\(row.merchant ?? "–")</td><td class="date">\(row.date ?? "–")</td><td class="num">\(row.total ?? "–") \
                \(row.currency)</td>
                <td class="text">\(row.reasons.map(\.title).joined(separator: ", "))</td></tr>
                """)
        }
        let reasonQuery = reason.map { "&reason=" + $0.rawValue } ?? ""
        let more =
            offset + queue.rows.count < (reason.map { queue.counts[$0] ?? 0 } ?? queue.total)
            ? HTML(
                """
                <p><a href="/queue?offset=\(offset + queuePageSize)\(reasonQuery)">next \(queuePageSize)</a></p>
                """
            )
            : ""
        let first =
            queue.rows.first.map { HTML("<a id=\"next\" href=\"/receipts/\($0.receiptID)\">start with the oldest</a>") }
            ?? ""
        let table: HTML =
            queue.rows.isEmpty
            ? "<p id=\"empty\">Nothing needs review. Spending is on the <a href=\"/dashboard\">dashboard</a>.</p>"
            : """
            <table id="queue"><thead><tr><th>receipt</th><th class="wide-only">file</th><th>merchant</th><th>date</th>
            <th>total</th><th>why</th></tr></thead><tbody>\(rows)</tbody></table>
            """
        return layout(
            "Review queue",
            """
            <h1>Receipts needing review</h1><p class="filters">\(HTML(joining: filters, separator: " "))</p>
            <p>\(first)</p>\(table)\(more)
            """, navigation)
    }
}
