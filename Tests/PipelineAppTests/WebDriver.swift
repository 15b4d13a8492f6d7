import Foundation
import PostgresStore
import TestSupport
import Testing

/// A small W3C WebDriver client spoken over HTTP to chromedriver: enough to open pages, find elements, type, click
/// and press keys in headless Chromium.
///
/// Requests go through `curl`: chromedriver writes headers without a space after the colon (`Content-Length:914`),
/// which URLSession on Linux refuses ("Failed writing header").
struct WebDriver {
    let base: URL
    let session: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts a headless Chromium session on the chromedriver at `base`.
    static func start(at base: URL) async throws -> WebDriver {
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": "/usr/bin/chromium",
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=1400,1000",
                        ],
                    ],
                ]
            ]
        ]
        let value = try await send("POST", base.appendingPathComponent("session"), capabilities)
        guard let session = (value as? [String: Any])?["sessionId"] as? String else {
            throw Failure(description: "chromedriver started no session: \(String(describing: value))")
        }
        return WebDriver(base: base, session: session)
    }

    func quit() async {
        _ = try? await Self.send("DELETE", base.appendingPathComponent("session/\(session)"), nil)
    }

    func open(_ url: String) async throws {
        _ = try await command("POST", "url", ["url": url])
    }

    var currentURL: String {
        get async throws { try await command("GET", "url", nil) as? String ?? "" }
    }

    /// The element matching a CSS selector, or nil.
    func element(_ selector: String) async throws -> String? {
        do {
            let value = try await command("POST", "element", ["using": "css selector", "value": selector])
            return (value as? [String: Any])?.values.first as? String
        } catch let failure as Failure where failure.description.contains("no such element") {
            return nil
        }
    }

    func click(_ element: String) async throws {
        _ = try await command("POST", "element/\(element)/click", [:])
    }

    func clear(_ element: String) async throws {
        _ = try await command("POST", "element/\(element)/clear", [:])
    }

    /// Types text into an element (`\u{E007}` is Enter).
    func type(_ text: String, into element: String) async throws {
        _ = try await command("POST", "element/\(element)/value", ["text": text])
    }

    /// Presses and releases one key on the page (no element focused).
    func press(_ key: String) async throws {
        let actions: [[String: Any]] = [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]]
        _ = try await command("POST", "actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    /// Accepts the open dialog (a `confirm` answers true).
    func acceptAlert() async throws {
        _ = try await command("POST", "alert/accept", [:])
    }

    /// Runs JavaScript in the page and returns its result.
    func script(_ source: String) async throws -> Any? {
        try await command("POST", "execute/sync", ["script": source, "args": []])
    }

    /// A PNG of the window.
    func screenshot() async throws -> Data {
        guard let text = try await command("GET", "screenshot", nil) as? String, let data = Data(base64Encoded: text)
        else {
            throw Failure(description: "no screenshot")
        }
        return data
    }

    /// Polls the page's URL until `condition` holds.
    func waitForURL(timeout: Duration = .seconds(15), _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let url = try await currentURL
            if condition(url) { return url }
            try await Task.sleep(for: .milliseconds(50))
        }
        let text = try await script("return document.body.innerText.slice(0, 400)") as? String ?? ""
        throw Failure(description: "the page stayed at \(try await currentURL), showing: \(text)")
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        try await Self.send(method, base.appendingPathComponent("session/\(session)/\(path)"), body)
    }

    private static func send(_ method: String, _ url: URL, _ body: [String: Any]?) async throws -> Any? {
        var arguments = ["--silent", "--show-error", "--max-time", "60", "--request", method, url.absoluteString]
        if let body {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            arguments += ["--header", "Content-Type: application/json", "--data-binary", json]
        }
        let result = try ChildProcess.run("/usr/bin/curl", arguments)
        guard result.status == 0 else { throw Failure(description: "curl \(method) \(url): \(result.standardError)") }
        let data = Data(result.standardOutput.utf8)
        let reply = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        let value = reply?["value"]
        if let error = (value as? [String: Any])?["error"] as? String {
            let message = (value as? [String: Any])?["message"] as? String ?? ""
            throw Failure(description: "\(error): \(message.prefix(300))")
        }
        return value is NSNull ? nil : value
    }
}

extension WebDriver {
    /// Polls a script until it returns true.
    func waitUntil(_ source: String, timeout: Duration = .seconds(15)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await script(source) as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        let text = try await script("return document.body.innerText.slice(0, 600)") as? String ?? ""
        throw Failure(description: "still not true after \(timeout): \(source); the page shows: \(text)")
    }
}

extension WebDriver {
    /// A TCP port free on loopback, for chromedriver.
    static func freePort() throws -> Int {
        let result = try ChildProcess.run(
            "/usr/bin/python3",
            ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        guard let port = Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "no free port: \(result.standardError)")
        }
        return port
    }
}

extension WebDriver {
    private static let chromedriver = URL(fileURLWithPath: "/usr/bin/chromedriver")

    /// Runs `body` with a headless Chromium session against `server`, once the server has printed its address
    /// (the first capture of `address`). A failure inside is recorded with what the server said; the session,
    /// chromedriver and the server are stopped either way.
    static func withSession(
        against server: BackgroundProcess, address: Regex<(Substring, Substring)>, folder: URL,
        _ body: (WebDriver, String) async throws -> Void
    ) async throws {
        guard FileManager.default.isExecutableFile(atPath: chromedriver.path) else {
            await server.stop()
            throw Failure(description: "chromium-driver is missing: run scripts/install-dependencies")
        }
        let driverPort = try freePort()
        let chromedriver = try BackgroundProcess(
            chromedriver, ["--port=\(driverPort)"], environment: ProcessInfo.processInfo.environment, folder: folder)
        var session: WebDriver?
        do {
            let base = try await server.waitForOutput(address)
            _ = try await chromedriver.waitForOutput(/(started successfully)/)
            let driver = try await start(at: URL(string: "http://127.0.0.1:\(driverPort)")!)
            session = driver
            try await body(driver, base)
        } catch {
            Issue.record("browser run failed: \(error)\nthe server said:\n\(server.output)")
        }
        await session?.quit()
        await chromedriver.stop()
        await server.stop()
    }
}

extension WebDriver {
    /// A phone's viewport width and a laptop's, in CSS px: every page must fit both.
    static let viewportWidths = [390, 1280]

    /// The words broken across lines in the cells `selector` matches, one line each (`"ENTERPRISE" is broken in
    /// "FY EAGLE ENTERPRISE"`). A word is a run of letters and digits; breaking between words, or after a hyphen or
    /// other punctuation, is not breaking one. A word whose whitespace-free token (`<script>alert('owned')</script>`)
    /// is wider on one line than half the viewport is over-long: no column on a phone holds it, so it may wrap. (The
    /// cell's own width is no measure: a table that squeezes a column makes every word in it over-long.)
    func brokenWords(in selector: String) async throws -> [String] {
        let found =
            try await script(
                """
                const broken = [];
                const measure = document.createElement("canvas").getContext("2d");
                const overLong = document.documentElement.clientWidth / 2;
                for (const cell of document.querySelectorAll(\(String(reflecting: selector)))) {
                  measure.font = getComputedStyle(cell).font;
                  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    for (const token of node.data.matchAll(/\\S+/g)) {
                      if (measure.measureText(token[0]).width > overLong) continue;
                      for (const word of token[0].matchAll(/[\\p{L}\\p{N}]+/gu)) {
                        const range = document.createRange();
                        range.setStart(node, token.index + word.index);
                        range.setEnd(node, token.index + word.index + word[0].length);
                        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0)
                          .map((rect) => Math.round(rect.top)));
                        if (lines.size > 1) broken.push(`"${word[0]}" is broken in "${cell.textContent.trim()}"`);
                      }
                    }
                  }
                }
                return broken;
                """) as? [String]
        guard let found else { throw Failure(description: "the broken words in \(selector) were not measured") }
        return found
    }

    /// Lays pages out in a viewport `width` CSS px wide: a phone's (the page's viewport meta applies, as on a phone)
    /// under 600 px, a desktop window's otherwise. Chromium's device emulation, over chromedriver's CDP endpoint.
    func emulateViewport(width: Int) async throws {
        let parameters: [String: Any] = [
            "width": width, "height": width < 600 ? 844 : 900, "deviceScaleFactor": 1, "mobile": width < 600,
        ]
        _ = try await command(
            "POST", "goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride", "params": parameters])
    }

    /// Opens each page at each of `viewportWidths` and says what does not fit: a page wider than the viewport (the
    /// phone would scroll sideways or zoom out), on a receipt's page an image narrower than half the viewport, or in
    /// the queue's rows or the failed receipts' a word broken across lines (`brokenWords`).
    /// The viewport is the layout viewport without a desktop scroll bar (`clientWidth`). With
    /// `PIPELINE_TEST_SCREENSHOTS` set to a folder, each page at each width is kept there (`fit-390-queue.png`).
    /// - Returns: one line per problem; empty when every page fits.
    func pagesThatDoNotFit(_ urls: [String]) async throws -> [String] {
        var problems: [String] = []
        for width in Self.viewportWidths {
            try await emulateViewport(width: width)
            for url in urls {
                try await open(url)
                let measured =
                    try await script(
                        """
                        const image = document.getElementById("receipt-image");
                        return [document.documentElement.clientWidth,
                          Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
                          image ? Math.round(image.getBoundingClientRect().width) : -1,
                          document.getElementById("error") || document.getElementById("not-drawn") ? 1 : 0];
                        """) as? [Int] ?? []
                guard measured.count == 4 else {
                    problems.append("\(url) at \(width) px: not measured (\(measured))")
                    continue
                }
                // An error page, or a failed receipt's page whose file could not be drawn, has no image.
                let (viewport, document, image, hasNoImage) = (
                    measured[0], measured[1], measured[2], measured[3] == 1
                )
                // A desktop's vertical scroll bar takes up to 20 px of the window; a phone's overlays the page.
                if viewport > width || viewport < width - 20 {
                    problems.append("\(url) at \(width) px: the layout viewport is \(viewport) px")
                }
                if document > viewport {
                    problems.append("\(url) at \(width) px: the page is \(document) px wide")
                }
                if url.contains(/\/receipts\/\d+$/) && !hasNoImage && image * 2 < viewport {
                    problems.append("\(url) at \(width) px: the receipt image is \(image) px wide")
                }
                for word in try await brokenWords(in: "#queue tbody td, #failed tbody td") {
                    problems.append("\(url) at \(width) px: \(word)")
                }
                if let folder = ProcessInfo.processInfo.environment["PIPELINE_TEST_SCREENSHOTS"] {
                    let name = url.split(separator: "/", maxSplits: 3).dropFirst(2).joined(separator: "-")
                        .replacingOccurrences(of: "?", with: "-")
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try await screenshot().write(
                        to: URL(fileURLWithPath: folder).appendingPathComponent("fit-\(width)-\(name).png"))
                }
            }
        }
        _ = try await command(
            "POST", "goog/cdp/execute", ["cmd": "Emulation.clearDeviceMetricsOverride", "params": [:]])
        return problems
    }
}
