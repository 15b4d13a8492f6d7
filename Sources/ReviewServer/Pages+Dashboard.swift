import Foundation
import PipelineCore

/// Spending by month, category and merchant, and an item's price history.
extension Pages {
    struct Dashboard {
        var month: String?
        var byMonth: [SpendingRow]
        var byCategory: [SpendingRow]
        var byMerchant: [SpendingRow]
        var item: String
        var prices: [PricePoint]
    }

    static func dashboard(_ data: Dashboard, _ navigation: Navigation) -> HTML {
        let merchants = data.byMerchant.map { row in
            HTML(
                """
                <tr><td class=\"text\">\(row.key)</td><td class=\"num\">\(row.expenses)</td><td \
                class=\"num\">\(moneyText(row.total)) \(row.currency)</td></tr>
                """
            )
        }
        let prices = data.prices.map { point in
            HTML(
                """
                <tr><td class="date">\(point.date ?? "–")</td><td class="text">\(point.merchant ?? "–")</td>\
                <td class="text">\(point.itemName)</td>
                <td class="num">\(point.quantity.map { "\($0)" } ?? "")</td><td \
                class="num wide-only">\(point.unitPrice.map(moneyText) ?? "")</td>
                <td class="num">\(point.totalPrice.map(moneyText) ?? "") \(point.currency)</td>
                <td><a href="/receipts/\(point.receiptID)">\(point.receiptID)</a></td></tr>
                """)
        }
        let itemSection: HTML =
            data.item.isEmpty
            ? ""
            : data.prices.isEmpty
                ? "<p id=\"prices-empty\">No item named like “\(data.item)” on any receipt.</p>"
                : """
                <table id="prices"><thead><tr><th>date</th><th>store</th><th>item</th><th>qty</th><th class="wide-only">unit price</th>
                <th>paid</th><th>receipt</th></tr></thead><tbody>\(prices)</tbody></table>
                """
        return layout(
            "Dashboard",
            """
            <h1>Where the money went</h1><p>Accepted expenses only; receipts waiting for review count once accepted.</p>
            <form method="get" action="/dashboard"><label>Month <input name="month" value="\(data.month)" \
            placeholder="2024-05"></label>
            <label>Item price history <input name="item" value="\(data.item)" placeholder="milk"></label>
            <button>show</button></form>
            <h2>Spend per month</h2>\(barChart(data.byMonth, id: "by-month"))
            <h2>Spend per \
            category\(data.month.map { " in \($0)" } ?? "")</h2>\(barChart(data.byCategory, id: "by-category"))
            <h2>Top merchants</h2><table id="merchants"><thead><tr><th>merchant</th><th>receipts</th><th>spent</th>\
            </tr></thead>
            <tbody>\(merchants)</tbody></table>
            <h2>Item prices</h2>\(itemSection)
            """, navigation)
    }

    /// Horizontal bars in SVG, one chart per currency (amounts in different currencies do not compare), each
    /// scaled to its own largest total; the currency with the most rows first. The chart stretches to the page's
    /// width and no further, so it fits a phone.
    private static func barChart(_ rows: [SpendingRow], id: String) -> HTML {
        guard !rows.isEmpty else { return "<p>No accepted expenses yet.</p>" }
        let groups = Dictionary(grouping: rows, by: { $0.currency ?? "" })
            .sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        let rowHeight = 22
        let charts = groups.map { currency, rows in
            let largest = max(rows.map { NSDecimalNumber(decimal: $0.total).doubleValue }.max() ?? 1, 0.01)
            let bars = rows.enumerated().map { index, row in
                let width = Int(360 * max(0, NSDecimalNumber(decimal: row.total).doubleValue) / largest)
                let y = index * rowHeight
                return HTML(
                    """
                    <text x="0" y="\(y + 15)">\(row.key)</text><rect x="170" y="\(y + 3)" width="\(width)" height="16">\
                    </rect>\
                    <text x="\(175 + width)" y="\(y + 15)">\(moneyText(row.total)) \(row.currency)</text>
                    """)
            }
            let height = rows.count * rowHeight
            return HTML(
                """
                <svg class="chart" data-currency="\(currency)" viewBox="0 0 680 \(height)" width="680" \
                height="\(height)" role="img" aria-label="\(currency.isEmpty ? "no currency" : currency)">\(bars)</svg>
                """)
        }
        return "<div class=\"charts\" id=\"\(id)\">\(charts)</div>"
    }
}
