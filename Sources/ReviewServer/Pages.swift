import Foundation
import PipelineCore

/// The page's HTML, one function per page. Every receipt value goes through `HTML` interpolation (escaped).
enum Pages {
    static let queuePageSize = 100

    static func layout(_ title: String, _ body: HTML) -> HTML {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) · receipts</title><link rel="stylesheet" href="/app.css"><script src="/app.js" defer></script>
        </head><body>
        <nav><a href="/queue">Review queue</a> <a href="/rules">Category rules</a> <a href="/dashboard">Dashboard</a>
        <span class="keys">keys: <kbd>j</kbd> next · <kbd>a</kbd> accept · <kbd>t</kbd> total · <kbd>x</kbd> \
        reject</span></nav>
        <main>\(body)</main></body></html>
        """
    }

    static func error(_ message: String) -> HTML {
        layout(
            "Error",
            """
            <h1>Cannot do that</h1><p class=\"error\" id=\"error\">\(message)</p><p><a href=\"/queue\">Back to the \
            queue</a></p>
            """
        )
    }

    // MARK: - Queue

    static func queue(_ queue: ReviewQueue, reason: ReviewReason?, offset: Int, csrf: String) -> HTML {
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
                <tr><td><a href="/receipts/\(row.receiptID)">\(row.receiptID)</a></td><td>\(row.fileName)</td>
                <td>\(row.merchant ?? "–")</td><td>\(row.date ?? "–")</td><td class="num">\(row.total ?? "–") \
                \(row.currency)</td>
                <td>\(row.reasons.map(\.title).joined(separator: ", "))</td></tr>
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
            <table id="queue"><thead><tr><th>receipt</th><th>file</th><th>merchant</th><th>date</th><th>total</th>
            <th>why</th></tr></thead><tbody>\(rows)</tbody></table>
            """
        return layout(
            "Review queue",
            """
            <h1>Receipts needing review</h1><p class="filters">\(HTML(joining: filters, separator: " "))</p>
            <p>\(first)</p>\(table)\(more)
            """)
    }

    // MARK: - Receipt

    /// - Parameter checks: the arithmetic checks over the corrected values, when a person corrected amounts or items.
    static func receipt(
        _ detail: ReceiptDetail, checks: ReconciliationResult?, next: Int64?, notice: String?, csrf: String
    ) -> HTML {
        let boxes =
            detail.layout.map { layout in
                detail.fields.flatMap { reading in
                    reading.evidenceLines.compactMap { line -> HTML? in
                        guard line >= 0, line < layout.lineBoxes.count, layout.width > 0, layout.height > 0 else {
                            return nil
                        }
                        let box = layout.lineBoxes[line]
                        func fraction(_ value: Int, _ whole: Int) -> String {
                            String(format: "%.5f", Double(value) / Double(whole))
                        }
                        return HTML(
                            """
                            <div class="box" data-field="\(reading.field.rawValue)" \
                            data-x="\(fraction(box.left, layout.width))" \
                            data-y="\(fraction(box.top, layout.height))" data-w="\(fraction(box.width, layout.width))" \
                            data-h="\(fraction(box.height, layout.height))"></div>
                            """)
                    }
                }
            } ?? []
        let fields = detail.fields.map { fieldRow($0, detail: detail) }
        let reasons = detail.reasons.map { HTML("<li data-reason=\"\($0.rawValue)\">\($0.title)</li>") }
        let findings = detail.findings.map { HTML("<li data-code=\"\($0.code.rawValue)\">\($0.message)</li>") }
        let notes: [HTML] = [
            detail.dateIsAmbiguous ? "<li>The date's day and month could be either way round: check it.</li>" : "",
            detail.possibleDuplicateOf.map {
                HTML(
                    """
                    <li>Possible duplicate of <a href=\"/receipts/\($0)\">receipt \($0)</a> (same merchant, date and \
                    total, or a near-identical image).</li>
                    """
                )
            } ?? "",
        ]
        let items = detail.items.enumerated().map { index, item in itemRow(item, position: index + 1) }
        let recheck: HTML =
            checks.map { result in
                let lines = result.findings.map { finding in
                    HTML("<li class=\"\(finding.passed ? "passed" : "failed")\">\(finding.message)</li>")
                }
                return HTML(
                    """
                    <p>With the corrections, the checks come out \(result.outcome.rawValue):</p>
                    <ul id="checks">\(lines)</ul><p>When the machine read it:</p>
                    """)
            } ?? ""
        let audit = detail.corrections.map { correction in
            HTML(
                """
                <tr><td>\(correction.field)</td><td>\(correction.machineValue ?? "–")</td>\
                <td>\(correction.personValue ?? "–")</td>
                <td>\(correction.correctedBy)</td><td>\(timestamp(correction.correctedAt))</td></tr>
                """)
        }
        let evidence = Set(detail.fields.flatMap(\.evidenceLines))
        let ocr = detail.ocrLines.enumerated().map { index, line in
            HTML("<span id=\"line-\(index)\" class=\"\(evidence.contains(index) ? "evidence" : "")\">\(line)</span>")
        }
        let noticeText: HTML =
            switch notice {
            case "saved": "<p class=\"notice\" id=\"notice\">Corrections saved.</p>"
            case "rule":
                "<p class=\"notice\" id=\"notice\">Rule saved: later receipts from this merchant get this category.</p>"
            default: ""
            }
        let nextLink =
            next.map { HTML("<a id=\"next\" href=\"/receipts/\($0)\">next receipt →</a>") }
            ?? "<a id=\"next\" href=\"/queue\">back to the queue</a>"
        return layout(
            "Receipt \(detail.receiptID)",
            """
            <h1>Receipt \(detail.receiptID) <small>\(detail.fileName)</small> <span class="status \
            \(detail.status.rawValue)">\(detail.status.rawValue.replacingOccurrences(of: "_", with: " "))</span></h1>
            \(noticeText)<p>\(nextLink) · read by \(detail.extractionSource), checks: \(detail.validationOutcome)</p>
            <div class="receipt">
            <section class="image"><div class="zoom"><button type="button" data-zoom="-1">−</button>
            <button type="button" data-zoom="0">fit</button><button type="button" data-zoom="1">+</button></div>
            <div class="frame" id="frame"><img id="receipt-image" src="/receipts/\(detail.receiptID)/image" \
            alt="receipt \(detail.receiptID)">\(boxes)</div></section>
            <section class="fields">
            <form method="post" action="/receipts/\(detail.receiptID)" id="review-form">
            <input type="hidden" name="csrf" value="\(csrf)">
            <table class="fields"><thead><tr><th>field</th><th>value</th><th>sure</th><th>read from</th></tr></thead>
            <tbody>\(fields)</tbody></table>
            <p class="actions"><button type="submit" name="action" value="accept" id="accept">Accept (a)</button>
            <button type="submit" name="action" value="save" id="save">Save corrections</button>
            <button type="submit" name="action" value="reject" id="reject" data-confirm="Reject: not an \
            expense?">Reject (x)</button></p>
            <h2>Items</h2><table id="items"><thead><tr><th>#</th><th>name</th><th>qty</th><th>unit</th><th>total</th>\
            <th>category</th><th></th></tr></thead><tbody>\(items)
            <tr id="new-item"><td>+</td><td><input name="new-item-name" id="new-item-name" placeholder="missing item">\
            </td><td><input name="new-item-quantity" inputmode="decimal" size="4"></td><td></td>
            <td><input name="new-item-amount" id="new-item-amount" inputmode="decimal" size="7"></td><td></td>
            <td><button type="submit" name="action" value="save" id="add-item">add</button></td></tr></tbody></table>
            </form>
            <form method="post" action="/receipts/\(detail.receiptID)/rule"><input type="hidden" name="csrf" \
            value="\(csrf)">
            <button type="submit" id="learn-rule">Always file \(detail.reading(.merchant)?.value ?? "this merchant") \
            under \(detail.reading(.category)?.value ?? "Other")</button></form>
            <h2>Why it is here</h2><ul id="reasons">\(reasons)</ul>\(recheck)<ul id="findings">\(findings)\(notes)</ul>
            <h2>Corrections</h2><table id="audit"><thead><tr><th>field</th><th>machine read</th><th>person set</th>\
            <th>who</th><th>when</th></tr></thead><tbody>\(audit)</tbody></table>
            <h2>OCR text</h2><pre id="ocr-text">\(HTML(joining: ocr, separator: "\n"))</pre>
            </section></div>
            """)
    }

    /// An editable item: its name, quantity and line total go with the form; its delete button removes it.
    private static func itemRow(_ item: ReviewItem, position: Int) -> HTML {
        let name = "item-\(position)"
        return """
            <tr data-item="\(position)"><td>\(position)</td>
            <td><input name="\(name)-name" id="\(name)-name" value="\(item.name)"></td>
            <td><input name="\(name)-quantity" id="\(name)-quantity" value="\(item.quantity)" inputmode="decimal" \
            size="4"></td><td class="num">\(item.unitPrice ?? "")</td>
            <td><input name="\(name)-amount" id="\(name)-amount" value="\(item.totalPrice)" inputmode="decimal" \
            size="7"></td><td>\(item.category)</td>
            <td><button type="submit" name="remove-item" value="\(position)" id="remove-\(name)" \
            data-confirm="Delete item \(position)?">delete</button></td></tr>
            """
    }

    private static func fieldRow(_ reading: FieldReading, detail: ReceiptDetail) -> HTML {
        let field = reading.field
        let input: HTML
        if field == .category {
            let options = ExpenseCategory.allCases.map { category in
                HTML("<option\(reading.value == category.rawValue ? " selected" : "")>\(category.rawValue)</option>")
            }
            input = "<select name=\"category\" id=\"field-category\">\(options)</select>"
        } else {
            let mode: HTML = field.isMoney ? " inputmode=\"decimal\"" : ""
            input =
                "<input name=\"\(field.rawValue)\" id=\"field-\(field.rawValue)\" value=\"\(reading.value)\"\(mode)>"
        }
        let confidence =
            reading.correction != nil
            ? HTML("<span class=\"corrected\">corrected</span>")
            : reading.confidence.map { HTML("\(Int(($0 * 100).rounded()))%") } ?? "–"
        let lines = reading.evidenceLines.filter { $0 >= 0 && $0 < detail.ocrLines.count }
            .map { HTML("<span class=\"line\" data-line=\"\($0)\">\(detail.ocrLines[$0])</span>") }
        return """
            <tr data-field="\(field.rawValue)"><th><label for="field-\(field.rawValue)">\(field.label)</label></th>\
            <td>\(input)</td>
            <td>\(confidence)</td><td class="evidence">\(HTML(joining: lines, separator: "<br>"))</td></tr>
            """
    }

    // MARK: - Rules

    static func rules(_ rules: [StoredCategoryRule], test: (CategoryRule, RuleTest)?, csrf: String) -> HTML {
        let rows = rules.map { stored in
            HTML(
                """
                <tr><td>\(stored.id)</td><td><form method="post" action="/rules" class="rule">
                <input type="hidden" name="csrf" value="\(csrf)"><input type="hidden" name="id" \
                value="\(String(stored.id))">
                \(targetSelect(stored.rule.target))<input name="pattern" value="\(stored.rule.pattern)">
                <input name="category" value="\(stored.rule.category)" list="categories">
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
                        \(change.map { HTML(": \(sample.category) → \($0.category)") } ?? "")</li>
                        """)
                }
                return HTML(
                    """
                    <section id="rule-test"><h2>Test of \(rule.target.rawValue) “\(rule.pattern)” → \
                    \(rule.category)</h2>
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
            """)
    }

    private static func targetSelect(_ selected: CategoryRule.Target) -> HTML {
        let options = [CategoryRule.Target.merchant, .keyword, .item].map { target in
            HTML(
                """
                <option value=\"\(target.rawValue)\"\(target == selected ? " selected" : "")>\(target.rawValue)</option>
                """
            )
        }
        return "<select name=\"match_on\">\(options)</select>"
    }

    // MARK: - Dashboard

    struct Dashboard {
        var month: String?
        var byMonth: [SpendingRow]
        var byCategory: [SpendingRow]
        var byMerchant: [SpendingRow]
        var item: String
        var prices: [PricePoint]
    }

    static func dashboard(_ data: Dashboard) -> HTML {
        let merchants = data.byMerchant.map { row in
            HTML(
                """
                <tr><td>\(row.key)</td><td class=\"num\">\(row.expenses)</td><td \
                class=\"num\">\(moneyText(row.total)) \(row.currency)</td></tr>
                """
            )
        }
        let prices = data.prices.map { point in
            HTML(
                """
                <tr><td>\(point.date ?? "–")</td><td>\(point.merchant ?? "–")</td><td>\(point.itemName)</td>
                <td class="num">\(point.quantity.map { "\($0)" } ?? "")</td><td \
                class="num">\(point.unitPrice.map(moneyText) ?? "")</td>
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
                <table id="prices"><thead><tr><th>date</th><th>store</th><th>item</th><th>qty</th><th>unit price</th>
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
            """)
    }

    /// Horizontal bars in SVG, one per row (per currency), scaled to the largest total of that currency.
    private static func barChart(_ rows: [SpendingRow], id: String) -> HTML {
        guard !rows.isEmpty else { return "<p>No accepted expenses yet.</p>" }
        let largest = Dictionary(grouping: rows, by: { $0.currency ?? "" })
            .mapValues { group in group.map { NSDecimalNumber(decimal: $0.total).doubleValue }.max() ?? 1 }
        let rowHeight = 22
        let bars = rows.enumerated().map { index, row in
            let scale = max(largest[row.currency ?? ""] ?? 1, 0.01)
            let width = Int(360 * max(0, NSDecimalNumber(decimal: row.total).doubleValue) / scale)
            let y = index * rowHeight
            return HTML(
                """
                <text x="0" y="\(y + 15)">\(row.key)</text><rect x="170" y="\(y + 3)" width="\(width)" height="16">\
                </rect>\
                <text x="\(175 + width)" y="\(y + 15)">\(moneyText(row.total)) \(row.currency)</text>
                """)
        }
        return """
            <svg class="chart" id="\(id)" width="680" height="\(rows.count * rowHeight)" role="img">\(bars)</svg>
            """
    }

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
