import Foundation
import PipelineCore

/// A self-contained HTML page: per-field accuracy bars, a latency histogram, and the worst misses with a thumbnail,
/// expected vs got, findings and the OCR text.
public enum BenchHTMLReport {
    /// How many worst misses the page lists.
    public static let worstMissCount = 25

    /// Renders the page.
    /// - Parameter thumbnail: the image of a receipt by name, as `(mime type, bytes)`, or nil to show none.
    public static func render(_ summary: BenchSummary, thumbnail: (String) -> (String, Data)?) -> String {
        var html = """
            <!doctype html><html><head><meta charset="utf-8"><title>pipeline bench</title><style>
            body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
            td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
            .bar{background:#eee;width:240px;height:14px;display:inline-block}.fill{background:#4a8;height:14px}
            .miss{border:1px solid #ccc;padding:1em;margin:1em 0;display:flex;gap:1em}.miss img{max-width:220px;max-height:360px}
            pre{font-size:11px;max-height:360px;overflow:auto;background:#f6f6f6;padding:.5em;white-space:pre-wrap}
            .bad{color:#b22}.ok{color:#282}
            </style></head><body><h1>pipeline bench</h1>
            """
        html +=
            "<p>\(summary.receipts.count) receipts. \(escape(BenchTextReport.render(summary).components(separatedBy: "\n").last ?? ""))</p>"
        for dataset in summary.datasets + [summary.overall] {
            html += "<h2>\(escape(dataset.dataset)) (\(dataset.receipts) receipts)</h2><table>"
            for field in ScoredField.allCases {
                guard let accuracy = dataset.fields[field], accuracy.scored > 0 else { continue }
                html += bar(field.rawValue, accuracy.accuracy, "\(accuracy.correct)/\(accuracy.scored)")
            }
            if dataset.itemReceipts > 0 {
                html += bar(
                    "items F1", dataset.items.f1,
                    "P \(percent(dataset.items.precision)) R \(percent(dataset.items.recall))")
            }
            html += bar("auto-accepted", dataset.autoAcceptedShare, "\(dataset.autoAccepted)/\(dataset.receipts)")
            html += bar(
                "total right when accepted", dataset.trust,
                "\(dataset.autoAcceptedTotalCorrect)/\(dataset.autoAcceptedWithTotal)")
            html += "</table>"
        }
        if !summary.overall.tradeOff.isEmpty {
            html +=
                "<h2>Trust budget: touches against silent errors</h2><p>Each point is a trust budget "
                + "(<code>acceptance.maxSilentPer100</code>); the ringed one is the configured budget's.</p>"
                + tradeOffCurve(summary)
        }
        html += "<h2>Latency image → draft</h2>" + histogram(summary.receipts.map(\.latency))
        html += "<h2>Worst misses</h2>"
        let worst = summary.receipts.filter { $0.missCount > 0 }.sorted { $0.missCount > $1.missCount }.prefix(
            worstMissCount)
        for receipt in worst { html += miss(receipt, thumbnail: thumbnail(receipt.name)) }
        return html + "</body></html>\n"
    }

    static func bar(_ label: String, _ share: Double, _ detail: String) -> String {
        "<tr><td>\(escape(label))</td><td><div class=bar><div class=fill style=\"width:\(Int(share * 240))px\"></div></div></td>"
            + "<td>\(percent(share))</td><td>\(escape(detail))</td></tr>"
    }

    /// The trade-off as an SVG chart: silent errors per 100 across, touches per 100 up, one line per dataset and
    /// one for all receipts, each point a budget; the configured budget's point ringed.
    static func tradeOffCurve(_ summary: BenchSummary) -> String {
        let (width, height, margin) = (480.0, 300.0, 40.0)
        let lines = summary.datasets + [summary.overall]
        let widest = max(1, lines.flatMap { $0.tradeOff.map(\.silentPer100) }.max() ?? 1)
        let x = { (silent: Double) in margin + silent / widest * (width - 2 * margin) }
        let y = { (touches: Double) in height - margin - touches / 100 * (height - 2 * margin) }
        let colors = ["#48a", "#a84", "#8a4", "#a48", "#222"]
        var svg = "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg +=
            "<line x1=\"\(margin)\" y1=\"\(height - margin)\" x2=\"\(width - margin)\" y2=\"\(height - margin)\" stroke=\"#999\"/>"
            + "<line x1=\"\(margin)\" y1=\"\(margin)\" x2=\"\(margin)\" y2=\"\(height - margin)\" stroke=\"#999\"/>"
            + "<text x=\"\(margin)\" y=\"\(height - 10)\" font-size=\"11\">silent errors per 100 (0 to "
            + String(format: "%.1f", widest) + ")</text>"
            + "<text x=\"4\" y=\"\(margin - 10)\" font-size=\"11\">touches per 100 (0 to 100)</text>"
        for (index, line) in lines.enumerated() {
            let color = colors[index % colors.count]
            let points = line.tradeOff.map { String(format: "%.1f,%.1f", x($0.silentPer100), y($0.touchesPer100)) }
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" points=\"\(points.joined(separator: " "))\"/>"
            for point in line.tradeOff {
                let (cx, cy) = (x(point.silentPer100), y(point.touchesPer100))
                let configured = point.maxSilentPer100 == summary.configuredPoint
                svg +=
                    String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" ", cx, cy, configured ? 6 : 3)
                    + "fill=\"\(configured ? "none" : color)\" stroke=\"\(configured ? "#b22" : color)\"><title>"
                    + escape(
                        "\(line.dataset): budget \(BenchTextReport.budgetText(point.maxSilentPer100))"
                            + String(
                                format: ", touches %.1f, silent %.1f per 100", point.touchesPer100,
                                point.silentPer100))
                    + "</title></circle>"
            }
            svg +=
                "<text x=\"\(width - margin + 4 - 60)\" y=\"\(margin + Double(index) * 14)\" font-size=\"11\" "
                + "fill=\"\(color)\">\(escape(line.dataset))</text>"
        }
        return svg + "</svg>"
    }

    static func histogram(_ latencies: [Double]) -> String {
        guard let longest = latencies.max(), longest > 0 else { return "<p>no receipts</p>" }
        let bucketCount = 20
        let width = longest / Double(bucketCount)
        var counts = [Int](repeating: 0, count: bucketCount)
        for latency in latencies { counts[min(bucketCount - 1, Int(latency / width))] += 1 }
        let tallest = counts.max() ?? 1
        var svg = "<svg width=\"\(bucketCount * 24 + 40)\" height=\"180\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, count) in counts.enumerated() {
            let height = Int(Double(count) / Double(tallest) * 140)
            svg +=
                "<rect x=\"\(index * 24 + 20)\" y=\"\(150 - height)\" width=\"20\" height=\"\(height)\" fill=\"#48a\"><title>"
                + String(format: "%.3f–%.3f s: %d", Double(index) * width, Double(index + 1) * width, count)
                + "</title></rect>"
        }
        svg += "<text x=\"20\" y=\"170\" font-size=\"11\">0 s</text>"
        svg +=
            "<text x=\"\(bucketCount * 24 - 20)\" y=\"170\" font-size=\"11\">" + String(format: "%.2f s", longest)
            + "</text></svg>"
        return svg
    }

    static func miss(_ receipt: ReceiptScore, thumbnail: (String, Data)?) -> String {
        var html = "<div class=miss><div>"
        if let (mime, data) = thumbnail {
            html += "<img alt=\"\(escape(receipt.name))\" src=\"data:\(mime);base64,\(data.base64EncodedString())\">"
        }
        html +=
            "</div><div><h3>\(escape(receipt.name)) <small>\(receipt.outcome.rawValue), \(receipt.status.rawValue)</small></h3><table>"
        html += "<tr><th>field</th><th>expected</th><th>got</th></tr>"
        for field in receipt.fields where field.field != .allKeyFields {
            html +=
                "<tr class=\(field.isCorrect ? "ok" : "bad")><td>\(field.field.rawValue)</td><td>\(escape(field.expected ?? "–"))</td>"
                + "<td>\(escape(field.got ?? "–"))</td></tr>"
        }
        html += "</table><ul>" + receipt.findings.map { "<li>\(escape($0))</li>" }.joined() + "</ul></div>"
        return html + "<pre>\(escape(receipt.ocrText))</pre></div>"
    }

    static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
