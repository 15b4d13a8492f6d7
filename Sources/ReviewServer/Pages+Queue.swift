import Foundation
import PipelineCore

/// The review queue: receipts needing review, filtered by reason, a page at a time.
extension Pages {
    /// - Parameters:
    ///   - failed: receipts whose job failed, listed under the queue.
    ///   - notice: what the last action on a failed receipt did.
    static func queue(
        _ queue: ReviewQueue, failed: [FailedReceipt], reason: ReviewReason?, offset: Int,
        notice: FailedReceiptNotice?, _ navigation: Navigation
    ) -> HTML {
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
                <tr><td class="id"><a href="/receipts/\(row.receiptID)">\(row.receiptID)</a></td>\
                <td class="wide-only">\(row.fileName)</td>
                <td class="text merchant">\(row.merchant ?? "–")</td><td class="date">\(row.date ?? "–")</td>\
                <td class="num">\(row.total ?? "–") \(row.currency)</td>
                <td class="text reasons">\(row.reasons.map(\.title).joined(separator: ", "))</td></tr>
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
        let noticeText: HTML =
            switch notice {
            case .retried(let id): "<p class=\"notice\" id=\"notice\">Receipt \(id) is queued to be read again.</p>"
            case .deleted(let id): "<p class=\"notice\" id=\"notice\">Receipt \(id) was deleted.</p>"
            case nil: ""
            }
        return layout(
            "Review queue",
            """
            <h1>Receipts needing review</h1><p class="filters">\(HTML(joining: filters, separator: " "))</p>
            \(noticeText)<p>\(first)</p>\(table)\(more)\(failedList(failed))
            """, navigation)
    }

    /// What a retry or delete on a failed receipt did, said on the queue page it returns to.
    enum FailedReceiptNotice {
        case retried(Int64)
        case deleted(Int64)

        /// The notice in a redirect's query (`?retried=12`), nil for none.
        init?(query: (String) -> String?) {
            if let id = query("retried").flatMap({ Int64($0) }) {
                self = .retried(id)
            } else if let id = query("deleted").flatMap({ Int64($0) }) {
                self = .deleted(id)
            } else {
                return nil
            }
        }
    }
}
