import Foundation
import PipelineCore

/// The page's HTML: the layout and the error page here, each other page in its own file (`Pages+Queue.swift`, …). Every receipt value goes through `HTML` interpolation (escaped).
enum Pages {
    static let queuePageSize = 100

    /// What the nav bar links to beyond the review pages: the upload page where the server has one (`pipeline
    /// serve`; `pipeline review` has none).
    struct Navigation: Sendable {
        var hasUploadPage: Bool
    }

    static func layout(_ title: String, _ body: HTML, _ navigation: Navigation) -> HTML {
        let upload: HTML = navigation.hasUploadPage ? "<a href=\"/upload\" id=\"nav-upload\">Upload</a> " : ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · receipts</title><link rel="stylesheet" href="/app.css"><script src="/app.js" defer></script>
            </head><body>
            <nav><a href="/queue">Review queue</a> <a href="/rules">Category rules</a> <a href="/dashboard">Dashboard</a>
            \(upload)<span class="keys">keys: <kbd>j</kbd> next · <kbd>a</kbd> accept · <kbd>t</kbd> total · <kbd>x</kbd> \
            reject</span></nav>
            <main>\(body)</main></body></html>
            """
    }

    static func error(_ message: String, _ navigation: Navigation) -> HTML {
        layout(
            "Error",
            """
            <h1>Cannot do that</h1><p class=\"error\" id=\"error\">\(message)</p><p><a href=\"/queue\">Back to the \
            queue</a></p>
            """, navigation
        )
    }

    /// An instant as ISO 8601 in UTC (`2026-11-26T14:00:00Z`), as the pages show times.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
