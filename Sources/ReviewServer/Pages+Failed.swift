import Foundation
import PipelineCore

/// Receipts whose job failed: listed on the queue page, each with a page of its own that says why and offers
/// retry and delete.
extension Pages {
    /// The queue page's list of failed receipts (nothing when there are none).
    static func failedList(_ failed: [FailedReceipt]) -> HTML {
        guard !failed.isEmpty else { return "" }
        let rows = failed.map { receipt in
            HTML(
                """
                <tr><td><a href="/receipts/\(receipt.receiptID)">\(receipt.receiptID)</a></td>\
                <td class="wide-only">\(receipt.fileName)</td><td class="text">\(receipt.reason)</td></tr>
                """)
        }
        return """
            <h2>Failed receipts (\(failed.count))</h2><p>These could not be read; open one to retry or delete it.</p>
            <table id="failed"><thead><tr><th>receipt</th><th class="wide-only">file</th><th>why</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }

    /// One failed receipt: why, when, and the retry and delete buttons beside its stored file. A file a browser
    /// cannot draw (`FailedReceipt.notDrawnBecause`) is said in words, with a link to download it, instead of an
    /// image that would show broken; the image route serves a failed receipt's stored file as it is.
    static func failedReceipt(_ receipt: FailedReceipt, csrf: String, _ navigation: Navigation) -> HTML {
        let id = receipt.receiptID
        let when = receipt.failedAt.map { " (last at \(timestamp($0)))" } ?? ""
        let file: HTML =
            if let why = receipt.notDrawnBecause {
                """
                <p id="not-drawn">The page could not be drawn: \(why). <a id="download" \
                href="/receipts/\(id)/image" download="\(receipt.fileName)">Download the stored file</a> \
                (\(receipt.fileName)) to look at it.</p>
                """
            } else {
                """
                <div class="frame"><img id="receipt-image" src="/receipts/\(id)/image" \
                alt="receipt \(id) as stored"></div>
                """
            }
        return layout(
            "Receipt \(id)",
            """
            <h1>Receipt \(id) <small>\(receipt.fileName)</small> <span class="status failed">failed</span></h1>
            <p class="error" id="failure">\(receipt.reason)</p>
            <p>It was tried \(receipt.attempts) time\(receipt.attempts == 1 ? "" : "s")\(when). Retry it once the \
            cause is fixed, or delete it: the stored copy goes, the file you ingested is not touched.</p>
            <div class="receipt"><section class="image">\(file)</section>
            <section class="fields"><form method="post" action="/receipts/\(id)/retry" class="rule">\
            <input type="hidden" name="csrf" value="\(csrf)"><button type="submit" id="retry">Retry</button></form>
            <form method="post" action="/receipts/\(id)/delete" class="rule"><input type="hidden" name="csrf" \
            value="\(csrf)"><button type="submit" id="delete" data-confirm="Delete receipt \(id)?">Delete</button>\
            </form></section></div>
            """, navigation)
    }
}
