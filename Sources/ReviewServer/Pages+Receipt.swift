import Foundation
import PipelineCore

/// One receipt: its image with the evidence boxes, the fields and items to correct, accept and reject.
extension Pages {
    /// The notice after a confirmation that queued receipts to be read again, followed by how many (`reread-3`).
    static let rereadingNotice = "reread-"

    /// - Parameter checks: the arithmetic checks over the corrected values, when a person corrected amounts or items.
    static func receipt(
        _ detail: ReceiptDetail, checks: ReconciliationResult?, next: Int64?, notice: String?, csrf: String,
        _ navigation: Navigation
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
                    <li>Possible duplicate of <a href=\"/receipts/\($0)\">receipt \($0)</a> \
                    (\(ReviewReason.duplicateGrounds)); compare the two:<br><a href=\"/receipts/\($0)\"><img \
                    id=\"duplicate-of-image\" src=\"/receipts/\($0)/image\" alt=\"receipt \($0)\" width=\"240\" \
                    loading=\"lazy\"></a></li>
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
                <tr><td>\(correction.field.rawValue)</td><td>\(correction.machineValue ?? "–")</td>\
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
            case let notice? where notice.hasPrefix(Self.rereadingNotice):
                """
                <p class="notice" id="notice">The receipt you confirmed taught its merchant: \
                \(Int(notice.dropFirst(Self.rereadingNotice.count)) ?? 0) receipt(s) waiting for review that read like it \
                are being read again, and leave the queue if the machine now trusts them.</p>
                """
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
            \(noticeText)<p>\(nextLink) · read by \(detail.extractionSource.rawValue), checks: \(detail.validationOutcome.rawValue)</p>
            <div class="receipt">
            <section class="image"><div class="zoom"><button type="button" data-zoom="-1">−</button>
            <button type="button" data-zoom="0">fit</button><button type="button" data-zoom="1">+</button></div>
            <div class="frame" id="frame"><img id="receipt-image" src="/receipts/\(detail.receiptID)/image" \
            alt="receipt \(detail.receiptID)">\(boxes)</div></section>
            <section class="fields">
            <form method="post" action="/receipts/\(detail.receiptID)" id="review-form">
            <input type="hidden" name="csrf" value="\(csrf)">
            <table class="fields"><thead><tr><th>field</th><th>value</th><th>sure</th><th class="wide-only">read from</th></tr></thead>
            <tbody>\(fields)</tbody></table>
            <p class="actions"><button type="submit" name="action" value="accept" id="accept">Accept (a)</button>
            <button type="submit" name="action" value="save" id="save">Save corrections</button>
            <button type="submit" name="action" value="reject" id="reject" data-confirm="Reject: not an \
            expense?">Reject (x)</button></p>
            <h2>Items</h2><table id="items"><thead><tr><th>#</th><th>name</th><th>qty</th><th class="wide-only">unit</th><th>total</th>\
            <th>category</th><th></th></tr></thead><tbody>\(items)
            <tr id="new-item"><td>+</td><td><input name="new-item-name" id="new-item-name" placeholder="missing item">\
            </td><td><input name="new-item-quantity" inputmode="decimal" size="4"></td><td class="wide-only"></td>
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
            """, navigation)
    }

    /// An editable item: its name, quantity and line total go with the form; its delete button removes it.
    private static func itemRow(_ item: ReviewItem, position: Int) -> HTML {
        let name = "item-\(position)"
        return """
            <tr data-item="\(position)"><td>\(position)</td>
            <td><input name="\(name)-name" id="\(name)-name" value="\(item.name)"></td>
            <td><input name="\(name)-quantity" id="\(name)-quantity" value="\(item.quantity)" inputmode="decimal" \
            size="4"></td><td class="num wide-only">\(item.unitPrice ?? "")</td>
            <td><input name="\(name)-amount" id="\(name)-amount" value="\(item.totalPrice)" inputmode="decimal" \
            size="7"></td><td class="text">\(item.category.rawValue)</td>
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
        let confidence: HTML
        if reading.correction != nil {
            confidence = "<span class=\"corrected\">corrected</span>"
        } else if let probability = reading.confidence, let threshold = reading.trustThreshold, probability < threshold
        {
            // A field a known layout or brand vouched for is trusted below its threshold: the page says by what.
            let vouch = reading.vouchedBy.map { "; trusted: \($0)" } ?? ""
            confidence = "\(FieldTrust.odds(probability, needs: threshold))\(vouch)"
        } else {
            confidence = reading.confidence.map { HTML("\(Int(($0 * 100).rounded()))%") } ?? "–"
        }
        let lines = reading.evidenceLines.filter { $0 >= 0 && $0 < detail.ocrLines.count }
            .map { HTML("<span class=\"line\" data-line=\"\($0)\">\(detail.ocrLines[$0])</span>") }
        return """
            <tr data-field="\(field.rawValue)"><th><label for="field-\(field.rawValue)">\(field.label)</label></th>\
            <td>\(input)</td>
            <td>\(confidence)</td><td class="evidence wide-only">\(HTML(joining: lines, separator: "<br>"))</td></tr>
            """
    }
}
