import DatabaseTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PipelineCore
import PostgresStore
import ReviewServer
import TestSupport
import Testing

/// Every route of the review page, request by request, over the review stores' in-memory fake: the page's logic,
/// without a database (`ReviewPageOnPostgresTests` runs it over the real store).
@Suite struct ReviewPageTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func withPage(
        options: ReviewServerOptions = ReviewServerOptions(reviewer: "tester (review page)"),
        _ body: @Sendable (any TestClientProtocol, InMemoryReviewStore, ReviewServer) async throws -> Void
    ) async throws {
        let store = InMemoryReviewStore(rules: try SeededCategoryRules.rules, clock: .fixed(Self.now))
        let server = try ReviewServer(store: store, options: options)
        let application = Application(router: server.makeRouter())
        try await application.test(.router) { client in try await body(client, store, server) }
    }

    func page(_ client: any TestClientProtocol, _ uri: String, headers: HTTPFields = [:]) async throws
        -> (status: HTTPResponse.Status, body: String, headers: HTTPFields)
    {
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
            (response.status, String(buffer: response.body), response.headers)
        }
    }

    func post(
        _ client: any TestClientProtocol, _ uri: String, _ fields: [(String, String)], headers: HTTPFields = [:]
    )
        async throws -> (status: HTTPResponse.Status, body: String, location: String?)
    {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) {
            ($0.status, String(buffer: $0.body), $0.headers[.location])
        }
    }

    /// The CSRF token a page's forms carry.
    func csrf(_ html: String) throws -> String {
        let match = try #require(html.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/))
        return String(match.1)
    }

    @Test func aPossibleDuplicateLinksToTheReceiptItMayRepeat() async throws {
        try await withPage { client, store, _ in
            let first = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: store)
            let again = try await ReviewSeed.receipt("sroie_030.jpg", text: ReviewSeed.unbalancedText, in: store)

            let queue = try await page(client, "/queue?reason=possible_duplicate")
            let receipt = try await page(client, "/receipts/\(again)")

            #expect(queue.body.contains("href=\"/receipts/\(again)\""))
            #expect(!queue.body.contains("href=\"/receipts/\(first)\""))
            #expect(receipt.body.contains("Possible duplicate of <a href=\"/receipts/\(first)\">receipt \(first)</a>"))
            #expect(receipt.body.contains("similar-looking page"), "the page says what made it a possible duplicate")
            #expect(
                receipt.body.contains("src=\"/receipts/\(first)/image\""), "the earlier receipt is shown to compare")
        }
    }

    @Test func queueListsReceiptsWithFilterCountsAndRefusesUnknownFilters() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: store)
            try await ReviewSeed.receipt(text: ReviewSeed.balancedText, machineAccepted: true, in: store)

            let queue = try await page(client, "/queue")
            let filtered = try await page(client, "/queue?reason=possible_duplicate")
            let bad = try await page(client, "/queue?reason=<script>")
            let root = try await client.execute(uri: "/", method: .get) { $0.headers[.location] }

            #expect(queue.status == .ok)
            #expect(queue.body.contains("href=\"/receipts/\(id)\""))
            #expect(queue.body.contains("all (1)"))
            #expect(queue.body.contains("totals do not add up (1)"))
            #expect(queue.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(filtered.body.contains("id=\"empty\""))
            #expect(bad.status == .badRequest)
            #expect(bad.body.contains("unknown filter &quot;&lt;script&gt;&quot;"))
            #expect(!bad.body.contains("<script>"))
            #expect(root == "/queue")
        }
    }

    @Test func aReceiptOnlyTheModelHeldBackHasItsFilterCountAndReason() async throws {
        try await withPage { client, store, _ in
            let heldBack = try await ReviewSeed.receipt(text: ReviewSeed.heldBackText, in: store)
            let unbalanced = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: store)

            let queue = try await page(client, "/queue")
            let filtered = try await page(client, "/queue?reason=total_not_sure")

            #expect(
                queue.body.contains("href=\"/queue?reason=total_not_sure\" class=\"\">total not sure (1)"))
            let row = try #require(
                queue.body.components(separatedBy: "<tr>").first {
                    $0.hasPrefix("<td class=\"id\"><a href=\"/receipts/\(heldBack)\"")
                })
            #expect(row.contains("total not sure</td></tr>"), "the why column")
            #expect(filtered.status == .ok)
            #expect(filtered.body.contains("class=\"on\">total not sure (1)"))
            #expect(filtered.body.contains("href=\"/receipts/\(heldBack)\""))
            #expect(!filtered.body.contains("href=\"/receipts/\(unbalanced)\""))
        }
    }

    /// The page's "sure" column of a key field is the probability the acceptance decision weighed, against what it
    /// needed, as the finding says it (not the extractor's own confidence).
    @Test func theSureColumnShowsTheProbabilityTheDecisionWeighed() async throws {
        try await withPage { client, store, _ in
            let heldBack = try await ReviewSeed.receipt(text: ReviewSeed.heldBackText, in: store)

            let receipt = try await page(client, "/receipts/\(heldBack)")

            let finding = try #require(receipt.body.firstMatch(of: /total not sure \(([0-9.]+%, needs [0-9.]+%)\)/))
            let row = try #require(
                receipt.body.components(separatedBy: "<tr data-field=").first { $0.hasPrefix("\"total\"") })
            #expect(row.contains("<td>\(finding.1)</td>"), "\(row)")
        }
    }

    /// A key field trusted below its threshold because something vouched for it (here a known brand on the first
    /// line) shows its probability and what trusted it, not only that it fell short.
    @Test func theSureColumnOfAVouchedFieldSaysWhatTrustedIt() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(
                text: """
                    Panda Express
                    Gourmet Chinese Food
                    Irvine Spectrum Center
                    3350 Main St
                    Irvine, CA 92618
                    03/12/2024 12:15
                    Orange Chicken 8.50
                    SUBTOTAL 8.50
                    TAX 0.66
                    TOTAL 9.16
                    """, in: store)

            let receipt = try await page(client, "/receipts/\(id)")

            let row = try #require(
                receipt.body.components(separatedBy: "<tr data-field=").first { $0.hasPrefix("\"merchant\"") })
            #expect(
                row.contains(
                    /<td>[0-9.]+%, needs [0-9.]+%; trusted: a known brand, printed as the page&#39;s first line, of the receipt&#39;s country<\/td>/
                ), "\(row)")
        }
    }

    @Test func receiptPageShowsFieldsEvidenceBoxesAndEscapesEverythingFromTheReceipt() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(
                fileName: "<img src=x onerror=alert(1)>.jpg", text: ReviewSeed.markupText, in: store)

            let receipt = try await page(client, "/receipts/\(id)")

            #expect(receipt.status == .ok)
            #expect(
                receipt.body.contains(
                    "&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt; &amp; &lt;b&gt;Deli&lt;/b&gt;"))
            #expect(receipt.body.contains("&lt;img src=x onerror=alert(1)&gt;.jpg"))
            #expect(!receipt.body.contains("<script>alert"))
            #expect(!receipt.body.contains("<b>Deli"))
            #expect(!receipt.body.contains("<img src=x"))
            #expect(receipt.body.contains("id=\"field-total\" value=\"9.99\""))
            #expect(receipt.body.contains("class=\"box\" data-field=\"total\""), "the total's line is outlined")
            #expect(receipt.body.contains("src=\"/receipts/\(id)/image\""))
        }
    }

    @Test func imagesAreServedByIdAndBadIdsAreNotFound() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: store)
            let image = try await client.execute(uri: "/receipts/\(id)/image", method: .get) { response in
                (response.status, response.headers[.contentType], Array(response.body.readableBytesView.prefix(2)))
            }

            #expect(image.0 == .ok)
            #expect(image.1 == "image/jpeg")
            #expect(image.2 == [0xFF, 0xD8], "JPEG bytes")
            for uri in [
                "/receipts/abc", "/receipts/-1", "/receipts/999999", "/receipts/999999/image", "/receipts/1%27/image",
            ] {
                let response = try await page(client, uri)
                #expect(response.status == .notFound, "\(uri)")
                #expect(response.body.contains("no receipt has id"), "\(uri)")
            }
        }
    }

    @Test func postsWithoutTheCSRFTokenOrFromAnotherSiteAreRefusedAndChangeNothing() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: store)
            let token = try csrf(try await page(client, "/receipts/\(id)").body)

            let missing = try await post(client, "/receipts/\(id)", [("total", "1.00"), ("action", "accept")])
            let wrong = try await post(
                client, "/receipts/\(id)", [("csrf", "00" + token.dropFirst(2)), ("action", "accept")])
            let foreign = try await post(
                client, "/receipts/\(id)", [("csrf", token), ("action", "accept")],
                headers: [.origin: "https://evil.example"])
            let rule = try await post(
                client, "/rules", [("match_on", "merchant"), ("pattern", "x"), ("category", "Groceries")])

            for response in [missing, wrong, foreign, rule] { #expect(response.status == .forbidden) }
            #expect(missing.body.contains("CSRF"))
            let receipt = try #require(try await store.receipt(id))
            #expect(receipt.corrections.isEmpty)
            #expect(receipt.status == .needsReview)
        }
    }

    @Test func badValuesGetClearErrorsAndChangeNothing() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: store)
            let token = try csrf(try await page(client, "/receipts/\(id)").body)

            let money = try await post(
                client, "/receipts/\(id)", [("csrf", token), ("total", "12,34"), ("action", "accept")])
            let date = try await post(client, "/receipts/\(id)", [("csrf", token), ("date", "2024-02-30")])
            let category = try await post(client, "/receipts/\(id)", [("csrf", token), ("category", "Snacks")])
            let action = try await post(client, "/receipts/\(id)", [("csrf", token), ("action", "delete")])
            let missing = try await post(client, "/receipts/424242", [("csrf", token), ("action", "accept")])

            #expect(money.status == .badRequest)
            #expect(money.body.contains("total must be an amount such as 12.34"))
            #expect(money.body.contains("(got &quot;12,34&quot;)"))
            #expect(date.status == .badRequest)
            #expect(date.body.contains("date must be a date such as 2024-01-31"))
            #expect(category.status == .badRequest)
            #expect(category.body.contains("Groceries"), "lists the known categories")
            #expect(action.status == .badRequest)
            #expect(missing.status == .notFound)
            #expect(try await store.receipt(id)?.corrections.isEmpty == true)
        }
    }

    @Test func correctingAndAcceptingMovesToTheNextReceiptAndKeepsTheAuditTrail() async throws {
        try await withPage { client, store, _ in
            let first = try await ReviewSeed.receipt(
                text: ReviewSeed.unbalancedText, committedAt: Date(timeIntervalSince1970: 1), in: store)
            let second = try await ReviewSeed.receipt("sroie_030.jpg", text: ReviewSeed.markupText, in: store)
            let token = try csrf(try await page(client, "/receipts/\(first)").body)

            let saved = try await post(
                client, "/receipts/\(first)", [("csrf", token), ("merchant", "Corner Bakery"), ("action", "save")])
            let accepted = try await post(
                client, "/receipts/\(first)", [("csrf", token), ("total", "6.75"), ("action", "accept")])
            let rejected = try await post(client, "/receipts/\(second)", [("csrf", token), ("action", "reject")])
            let after = try await page(client, "/receipts/\(first)")
            let queue = try await page(client, "/queue")
            let dashboard = try await page(client, "/dashboard?item=croissant")

            #expect(saved.location == "/receipts/\(first)?notice=saved")
            #expect(accepted.status == .seeOther)
            #expect(accepted.location == "/receipts/\(second)")
            #expect(rejected.location == "/queue", "the queue is empty")
            #expect(after.body.contains("class=\"status accepted\""))
            #expect(
                after.body.contains(
                    /<td>total<\/td><td>7.95<\/td><td>6.75<\/td>\s*<td>tester \(review page\)<\/td><td>2025-06-15T15:06:40Z<\/td>/
                ), "who corrected it, and when by the store's clock")
            #expect(queue.body.contains("id=\"empty\""))
            #expect(dashboard.body.contains("6.75"))
            #expect(dashboard.body.contains("Corner Bakery"))
            #expect(dashboard.body.contains("id=\"prices\""))
        }
    }

    /// 6.40 GBP and 327.00 MYR do not compare: each currency gets its own chart, scaled to its own largest bar.
    @Test func dashboardDrawsOneChartPerCurrency() async throws {
        try await withPage { client, store, _ in
            for (image, currency, total) in [("sroie_006.jpg", "MYR", "327.00"), ("sroie_030.jpg", "GBP", "6.40")] {
                let id = try await ReviewSeed.receipt(image, text: ReviewSeed.balancedText, in: store)
                _ = try await store.review(
                    id, corrections: [.currency: currency, .total: total], items: [], decision: .accept, by: "tester")
            }
            let dashboard = try await page(client, "/dashboard").body
            let month = try #require(
                dashboard.firstRange(of: #/<div class="charts" id="by-month">.*?</div>/#.dotMatchesNewlines()))
            let charts = dashboard[month].matches(of: #/<svg class="chart" data-currency="([A-Z]+)"/#).map(\.output.1)
            #expect(charts.sorted() == ["GBP", "MYR"], "\(dashboard[month])")
        }
    }

    @Test func itemsAreChangedAddedAndRemovedOnThePageAndTheChecksFollowThem() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.markupText, in: store)
            let before = try await page(client, "/receipts/\(id)")
            let token = try csrf(before.body)

            let changed = try await post(
                client, "/receipts/\(id)",
                [
                    ("csrf", token), ("item-1-name", "Sandwich"), ("item-1-quantity", ""), ("item-1-amount", "5.99"),
                    ("new-item-name", "Soup"), ("new-item-quantity", "1"), ("new-item-amount", "4.00"),
                    ("action", "save"),
                ])
            let after = try await page(client, "/receipts/\(id)")
            let removed = try await post(
                client, "/receipts/\(id)",
                [
                    ("csrf", token), ("item-1-name", "Sandwich"), ("item-1-amount", "5.99"), ("item-2-name", "Soup"),
                    ("item-2-amount", "4.50"), ("remove-item", "2"),
                ])
            let last = try await page(client, "/receipts/\(id)")

            #expect(before.body.contains("id=\"item-1-amount\" value=\"4.00\""))
            #expect(before.body.contains("line items sum to 4.00 but the printed total is 9.99"))
            #expect(!before.body.contains("id=\"checks\""), "nothing corrected yet")
            #expect(changed.location == "/receipts/\(id)?notice=saved")
            #expect(after.body.contains("id=\"item-2-name\" value=\"Soup\""))
            #expect(after.body.contains("<li class=\"passed\">line items sum to 9.99, matching the printed total 9.99"))
            #expect(after.body.contains("<td>item</td><td>#1 Sandwich = 4.00</td><td>#1 Sandwich = 5.99</td>"))
            #expect(after.body.contains("<td>item</td><td>–</td><td>#2 Soup × 1 = 4.00</td>"))
            #expect(removed.location == "/receipts/\(id)?notice=saved")
            #expect(!last.body.contains("id=\"item-2-name\""), "the item is gone, its edit with it")
            #expect(last.body.contains("<li class=\"failed\">line items sum to 5.99 but the printed total is 9.99"))
            #expect(try await store.receipt(id)?.status == .needsReview)
        }
    }

    @Test func badItemEditsGetClearErrorsAndChangeNothing() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.markupText, in: store)
            let token = try csrf(try await page(client, "/receipts/\(id)").body)

            let amount = try await post(
                client, "/receipts/\(id)", [("csrf", token), ("item-1-amount", "4,50"), ("action", "accept")])
            let quantity = try await post(client, "/receipts/\(id)", [("csrf", token), ("item-1-quantity", "-2")])
            let position = try await post(client, "/receipts/\(id)", [("csrf", token), ("remove-item", "7")])
            let number = try await post(client, "/receipts/\(id)", [("csrf", token), ("remove-item", "two")])
            let addition = try await post(client, "/receipts/\(id)", [("csrf", token), ("new-item-name", "Soup")])
            let unknown = try await post(client, "/receipts/424242", [("csrf", token), ("item-1-amount", "1.00")])
            let badID = try await post(client, "/receipts/abc", [("csrf", token), ("item-1-amount", "1.00")])
            let forged = try await post(client, "/receipts/\(id)", [("item-1-amount", "1.00"), ("remove-item", "1")])

            #expect(amount.status == .badRequest)
            #expect(
                amount.body.contains(
                    "receipt \(id) item 1: amount must be an amount such as 12.34 (a dot for decimals, up to 3 of "
                        + "them, no thousands separator) (got &quot;4,50&quot;)"))
            #expect(quantity.status == .badRequest)
            #expect(quantity.body.contains("receipt \(id) item 1: quantity must be a number above 0"))
            #expect(position.status == .badRequest)
            #expect(position.body.contains("receipt \(id) has no item 7 (it has only item 1)"))
            #expect(number.status == .badRequest)
            #expect(number.body.contains("bad item number &quot;two&quot;"))
            #expect(addition.status == .badRequest)
            #expect(addition.body.contains("receipt \(id) new item: amount must be"))
            #expect(unknown.status == .notFound)
            #expect(badID.status == .notFound)
            #expect(forged.status == .forbidden)
            let receipt = try #require(try await store.receipt(id))
            #expect(receipt.corrections.isEmpty)
            #expect(receipt.items.map(\.totalPrice) == ["4.00"])
            #expect(receipt.status == .needsReview)
        }
    }

    @Test func rulesCanBeTestedSavedEditedAndDeletedAndUnknownCategoriesAreRefused() async throws {
        try await withPage { client, store, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: store)
            let rulesPage = try await page(client, "/rules")
            let token = try csrf(rulesPage.body)
            let fields = [("csrf", token), ("match_on", "merchant"), ("pattern", "corner bakery"), ("priority", "5")]

            let unknown = try await post(client, "/rules", fields + [("category", "Snacks"), ("action", "save")])
            let tested = try await post(client, "/rules", fields + [("category", "Groceries"), ("action", "test")])
            let saved = try await post(client, "/rules", fields + [("category", "Groceries"), ("action", "save")])
            let ruleID = try #require(
                try await store.categoryRules().first { $0.rule.pattern == "corner bakery" }?.id)
            let edited = try await post(
                client, "/rules",
                [
                    ("csrf", token), ("id", String(ruleID)), ("match_on", "merchant"), ("pattern", "corner bakery"),
                    ("category", "Food & Dining"), ("priority", "5"), ("action", "save"),
                ])
            let listed = try await page(client, "/rules")
            let deleted = try await post(
                client, "/rules", [("csrf", token), ("id", String(ruleID)), ("action", "delete")])
            let again = try await post(
                client, "/rules", [("csrf", token), ("id", String(ruleID)), ("action", "delete")])
            let learned = try await post(client, "/receipts/\(id)/rule", [("csrf", token)])

            #expect(unknown.status == .badRequest)
            #expect(
                unknown.body.contains(
                    "unknown expense category &quot;Snacks&quot;; known expense categories: Food &amp; Dining"))
            #expect(tested.status == .ok)
            #expect(tested.body.contains("Matches 1 of 1 stored receipts"))
            #expect(saved.location == "/rules")
            #expect(edited.location == "/rules")
            #expect(listed.body.contains("value=\"Food &amp; Dining\""))
            #expect(deleted.location == "/rules")
            #expect(again.status == .notFound)
            #expect(learned.location == "/receipts/\(id)?notice=rule")
            let rules = try await store.categoryRules()
            #expect(rules.compactMap(\.learnedFrom) == [id])
            #expect(rules.contains { $0.learnedFrom == id && $0.rule.pattern == "corner bakery" })
        }
    }

    @Test func dashboardRefusesABadMonth() async throws {
        try await withPage { client, _, _ in
            let bad = try await page(client, "/dashboard?month=May")
            let empty = try await page(client, "/dashboard?item=milk")

            #expect(bad.status == .badRequest)
            #expect(bad.body.contains("month must look like 2024-05"))
            #expect(empty.status == .ok)
            #expect(empty.body.contains("id=\"prices-empty\""))
        }
    }

    @Test func anAddressBeyondLoopbackNeedsTheTokenAndTheLoginLinkWorksOnce() async throws {
        #expect(throws: ReviewServerError.self) {
            _ = try ReviewServer(
                store: InMemoryReviewStore(), options: ReviewServerOptions(host: "0.0.0.0", reviewer: "x"))
        }
        let options = ReviewServerOptions(host: "0.0.0.0", token: "s3cret-token", reviewer: "x")
        try await withPage(options: options) { client, _, server in
            let link = try #require(await server.makeLoginPath())

            let anonymous = try await page(client, "/queue")
            let wrongBearer = try await page(client, "/queue", headers: [.authorization: "Bearer nope"])
            let bearer = try await page(client, "/queue", headers: [.authorization: "Bearer s3cret-token"])
            let login = try await client.execute(uri: link, method: .get) { ($0.status, $0.headers[.setCookie]) }
            let reused = try await page(client, link)
            let cookie = try #require(login.1?.split(separator: ";").first.map(String.init))
            let withCookie = try await page(client, "/queue", headers: [.cookie: cookie])

            #expect(anonymous.status == .unauthorized)
            #expect(!anonymous.body.contains("s3cret"))
            #expect(wrongBearer.status == .unauthorized)
            #expect(bearer.status == .ok)
            #expect(login.0 == .seeOther)
            #expect(login.1?.contains("HttpOnly") == true)
            #expect(reused.status == .unauthorized)
            #expect(withCookie.status == .ok)
        }
    }
}

/// The review page over the real store (`PostgresReviewStore`): a correction and a decision posted on the page reach
/// the database, and the page reads them back.
@Suite struct ReviewPageOnPostgresTests {
    /// Runs `body` with the page over a freshly migrated database, its reviewer "tester (review page)".
    private func withPage(_ body: (PostgresConnection, ReviewServer, ReviewPageTests) async throws -> Void)
        async throws
    {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let server = try ReviewServer(
                store: PostgresReviewStore(database: connection),
                options: ReviewServerOptions(reviewer: "tester (review page)"))
            try await body(connection, server, ReviewPageTests())
        }
    }

    @Test func correctingAndAcceptingOnThePageIsStoredWithTheAuditTrail() async throws {
        try await withPage { connection, server, pages in
            let first = try await ReviewSeed.receipt(
                text: ReviewSeed.unbalancedText, committedAt: Date(timeIntervalSince1970: 1), in: connection)
            let second = try await ReviewSeed.receipt("sroie_030.jpg", text: ReviewSeed.markupText, in: connection)
            try await Application(router: server.makeRouter()).test(.router) { client in
                let token = try pages.csrf(try await pages.page(client, "/receipts/\(first)").body)
                let accepted = try await pages.post(
                    client, "/receipts/\(first)", [("csrf", token), ("total", "6.75"), ("action", "accept")])
                let after = try await pages.page(client, "/receipts/\(first)")

                #expect(accepted.location == "/receipts/\(second)")
                #expect(after.body.contains("class=\"status accepted\""))
                #expect(
                    after.body.contains(
                        /<td>total<\/td><td>7.95<\/td><td>6.75<\/td>\s*<td>tester \(review page\)<\/td>/))
            }
            let stored = try await connection.query(
                "SELECT status, money_text(total) AS total FROM expenses WHERE receipt_id = $1", [first])
            #expect(try stored.first?.string("status") == "accepted")
            #expect(try stored.first?.string("total") == "6.75")
            let trail = try await connection.query(
                "SELECT field FROM corrections WHERE receipt_id = $1 ORDER BY id", [first])
            #expect(try trail.map { try $0.string("field") } == ["total", "status"])
        }
    }

    /// Accepting a receipt on the page queues the receipts waiting beside it that read like its merchant to be read
    /// again, and the next receipt's page says so; a receipt of another merchant is not queued.
    @Test func acceptingOnThePageQueuesTheWaitingReceiptsOfItsMerchantAndSaysSo() async throws {
        try await withPage { connection, server, pages in
            let first = try await ReviewSeed.receipt(
                text: ReviewSeed.unbalancedText, committedAt: Date(timeIntervalSince1970: 1), in: connection)
            let other = try await ReviewSeed.receipt(
                "sroie_035.jpg", text: ReviewSeed.markupText, committedAt: Date(timeIntervalSince1970: 2),
                in: connection)
            let sameShop = try await ReviewSeed.receipt(
                "sroie_030.jpg", text: ReviewSeed.unbalancedText, committedAt: Date(timeIntervalSince1970: 3),
                in: connection)
            try await Application(router: server.makeRouter()).test(.router) { client in
                let token = try pages.csrf(try await pages.page(client, "/receipts/\(first)").body)
                let accepted = try await pages.post(
                    client, "/receipts/\(first)", [("csrf", token), ("action", "accept")])
                #expect(accepted.location == "/receipts/\(other)?notice=reread-1")
                let next = try await pages.page(client, "/receipts/\(other)?notice=reread-1")
                #expect(next.body.contains("1 receipt(s) waiting for review that read like it are being read again"))
            }
            let queued = try await connection.query("SELECT receipt_id FROM jobs WHERE kind = 'reprocess'").map {
                Int64(try $0.requiredInt("receipt_id"))
            }
            #expect(queued == [sameShop])
        }
    }

    /// A receipt whose job went dead is listed under the queue and has a page that says why; its retry button
    /// queues the job again and its delete button removes the receipt (never one with an expense).
    @Test func aFailedReceiptShowsWhyAndIsRetriedThenDeletedFromThePage() async throws {
        try await withPage { connection, server, pages in
            let read = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let failed = try await ReviewSeed.storedReceipt("sroie_030.jpg", in: connection)
            try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(NewJob(key: "failed", receiptID: failed, maxAttempts: 5), in: connection)
            }
            let reason = "decode: broken.jpg: decode failed: the JPEG data ends early. Ingest the whole file again."
            try await connection.query(
                """
                UPDATE jobs SET state = 'dead', attempts = 1, finished_at = now(), last_error = $2
                WHERE receipt_id = $1
                """, [failed, reason])
            try await Application(router: server.makeRouter()).test(.router) { client in
                let queue = try await pages.page(client, "/queue")
                let receipt = try await pages.page(client, "/receipts/\(failed)")
                let token = try pages.csrf(receipt.body)
                let refused = try await pages.post(client, "/receipts/\(read)/delete", [("csrf", token)])
                let retried = try await pages.post(client, "/receipts/\(failed)/retry", [("csrf", token)])
                let notice = try await pages.page(client, try #require(retried.location))
                let retriedAgain = try await pages.post(client, "/receipts/\(failed)/retry", [("csrf", token)])
                try await connection.query("UPDATE jobs SET state = 'dead' WHERE receipt_id = $1", [failed])
                let deleted = try await pages.post(client, "/receipts/\(failed)/delete", [("csrf", token)])
                let gone = try await pages.page(client, "/receipts/\(failed)")

                let failedTable = queue.body.components(separatedBy: "<table id=\"failed\">").dropFirst().first ?? ""
                #expect(failedTable.contains("href=\"/receipts/\(failed)\""), "listed under Failed receipts")
                #expect(queue.body.contains("the JPEG data ends early"))
                #expect(receipt.status == .ok)
                #expect(receipt.body.contains("<p class=\"error\" id=\"failure\">\(reason)</p>"))
                #expect(receipt.body.contains("id=\"retry\"") && receipt.body.contains("id=\"delete\""))
                #expect(refused.status == .conflict, "a receipt with an expense is not deleted")
                #expect(retried.location == "/queue?retried=\(failed)")
                #expect(notice.body.contains("Receipt \(failed) is queued to be read again."))
                #expect(retriedAgain.status == .conflict, "a queued receipt has no dead job to retry")
                #expect(deleted.location == "/queue?deleted=\(failed)")
                #expect(gone.status == .notFound)
            }
            let left = try await connection.query("SELECT id FROM receipts ORDER BY id")
            #expect(try left.map { try $0.int("id").map(Int64.init) } == [read])
        }
    }

    /// A receipt whose PDF failed to decode shows no image (a browser draws a PDF in an `<img>` broken): its page
    /// says in words that the page could not be drawn and why, and offers the stored file to download. The job's
    /// error is stored as the worker stores it (`QueueStatements.fail`).
    @Test func aFailedPDFIsSaidInWordsWithItsFileToDownloadNotShownAsABrokenImage() async throws {
        try await withPage { connection, server, pages in
            let damaged = [UInt8]("%PDF-1.7\n1 0 obj << /Type /Catalog".utf8) + [UInt8](repeating: 0x41, count: 64)
            let hash = String(repeating: "d", count: 64)
            let stored = try await connection.transaction { connection in
                try ReceiptStore.insert(
                    [
                        NewReceipt(
                            sha256: hash, originalName: "damaged.pdf", originalPath: "/inbox/damaged.pdf",
                            format: .pdf, bytes: damaged)
                    ], in: connection)
            }
            let id = try #require(stored[hash])
            try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(NewJob(key: "damaged", receiptID: id, maxAttempts: 5), in: connection)
            }
            let message = "damaged.pdf: the PDF is damaged: PDFium cannot open it. Export or save it again."
            try await connection.query(
                """
                UPDATE jobs SET state = 'dead', attempts = 1, finished_at = now(), last_error = 'decode: ' || $2,
                    errors = jsonb_build_array(jsonb_build_object(
                        'attempt', 1, 'at', now(), 'stage', 'decode', 'message', $2::text, 'permanent', true))
                WHERE receipt_id = $1
                """, [id, message])
            try await Application(router: server.makeRouter()).test(.router) { client in
                let page = try await pages.page(client, "/receipts/\(id)")
                let file = try await client.execute(uri: "/receipts/\(id)/image", method: .get) { response in
                    (response.headers[.contentType], [UInt8](buffer: response.body))
                }

                #expect(page.status == .ok)
                #expect(page.body.contains("<p class=\"error\" id=\"failure\">decode: \(message)</p>"))
                #expect(!page.body.contains("<img"), "no image that a browser draws broken")
                #expect(
                    page.body.contains(
                        "<p id=\"not-drawn\">The page could not be drawn: the file could not be decoded"),
                    "\(page.body)")
                #expect(page.body.contains("href=\"/receipts/\(id)/image\" download=\"damaged.pdf\""))
                #expect(file.0 == "application/pdf")
                #expect(file.1 == damaged, "the download is the stored file as it was ingested")
            }
        }
    }
}
