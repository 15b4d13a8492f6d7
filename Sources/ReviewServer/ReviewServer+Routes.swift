import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PipelineCore

/// A request the page refuses, with the status and words to answer it.
struct RequestError: Error {
    let status: HTTPResponse.Status
    let message: String
}

extension ReviewServer {
    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in Response.seeOther("/queue") }
        router.get("/login") { request, _ in await login(request) }
        router.get("/app.js") { _, _ in Assets.response(Assets.script, type: "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Assets.response(Assets.style, type: "text/css; charset=utf-8") }

        router.get("/queue") { request, _ in
            await page {
                let reason = try request.uri.queryParameters.get("reason").map { name in
                    guard let reason = ReviewReason(rawValue: name) else {
                        throw RequestError(
                            status: .badRequest,
                            message: "unknown filter \"\(name)\"; use one of: "
                                + ReviewReason.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    return reason
                }
                let offset = max(0, request.uri.queryParameters.get("offset").flatMap { Int($0) } ?? 0)
                let queue = try await store.queue(
                    ReviewQueueQuery(reason: reason, limit: Pages.queuePageSize, offset: offset))
                let failed = try await store.failedReceipts(limit: Pages.queuePageSize)
                let notice = Pages.FailedReceiptNotice { request.uri.queryParameters.get($0) }
                return .html(
                    Pages.queue(
                        queue, failed: failed, reason: reason, offset: offset, notice: notice, navigation))
            }
        }

        router.get("/receipts/:id") { request, context in
            await page {
                let id = try receiptID(context)
                let detail: ReceiptDetail
                do {
                    guard let found = try await store.receipt(id) else { throw notFound(id) }
                    detail = found
                } catch let error as ReviewError where error.code == .noExpense {
                    guard let failed = try await store.failedReceipt(id) else { throw error }
                    return .html(Pages.failedReceipt(failed, csrf: csrfToken, navigation))
                }
                let next = try await store.nextInQueue(after: id)
                let notice = request.uri.queryParameters.get("notice")
                let checks = detail.hasCorrectedAmounts ? detail.recheck(with: options.reconciler) : nil
                return .html(
                    Pages.receipt(detail, checks: checks, next: next, notice: notice, csrf: csrfToken, navigation))
            }
        }

        router.get("/receipts/:id/image") { _, context in
            await page {
                let id = try receiptID(context)
                guard let image = try await store.image(id) else { throw notFound(id) }
                return Response(
                    status: .ok,
                    headers: [.contentType: image.contentType, .cacheControl: "private, max-age=3600"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.bytes)))
            }
        }

        router.post("/receipts/:id") { request, context in
            await page {
                let id = try receiptID(context)
                let form = try await postedForm(request)
                var corrections: [CorrectableField: String?] = [:]
                for field in CorrectableField.allCases {
                    guard let raw = form[field.rawValue] else { continue }
                    corrections[field] = .some(try FieldValue.normalize(raw, for: field))
                }
                let decision: ReviewDecision?
                switch form["action"] ?? "save" {
                case "save": decision = nil
                case "accept": decision = .accept
                case "reject": decision = .reject
                case let other: throw RequestError(status: .badRequest, message: "unknown action \"\(other)\"")
                }
                let outcome = try await store.review(
                    id, corrections: corrections, items: try itemEdits(form, receiptID: id), decision: decision,
                    by: reviewer)
                guard decision != nil else { return .seeOther("/receipts/\(id)?notice=saved") }
                let next = try await store.nextInQueue(after: id)
                // The next receipt's page says what the confirmation set off (the queue page lists what still waits).
                let rereading =
                    outcome.rereading.isEmpty ? "" : "?notice=\(Pages.rereadingNotice)\(outcome.rereading.count)"
                return .seeOther(next.map { "/receipts/\($0)\(rereading)" } ?? "/queue")
            }
        }

        router.post("/receipts/:id/retry") { request, context in
            await page {
                let id = try receiptID(context)
                _ = try await postedForm(request)
                guard try await store.retryFailed(id) else { throw notFailed(id, action: "retried") }
                return .seeOther("/queue?retried=\(id)")
            }
        }

        router.post("/receipts/:id/delete") { request, context in
            await page {
                let id = try receiptID(context)
                _ = try await postedForm(request)
                guard try await store.deleteFailed(id) else { throw notFailed(id, action: "deleted") }
                return .seeOther("/queue?deleted=\(id)")
            }
        }

        router.post("/receipts/:id/rule") { request, context in
            await page {
                let id = try receiptID(context)
                _ = try await postedForm(request)
                guard let detail = try await store.receipt(id) else { throw notFound(id) }
                guard let merchant = detail.reading(.merchant)?.value, let category = detail.reading(.category)?.value
                else {
                    throw RequestError(
                        status: .badRequest,
                        message: "receipt \(id) has no merchant to make a rule from; correct it first")
                }
                let rule = try CategoryRule(
                    target: .merchant, pattern: merchant.lowercased(), categoryNamed: category, priority: 40)
                try await store.saveRule(rule, id: nil, learnedFrom: id, by: reviewer)
                return .seeOther("/receipts/\(id)?notice=rule")
            }
        }

        router.get("/rules") { _, _ in
            await page { .html(Pages.rules(try await store.categoryRules(), test: nil, csrf: csrfToken, navigation)) }
        }

        router.post("/rules") { request, _ in
            await page {
                let form = try await postedForm(request)
                let id = try form["id"].flatMap { $0.isEmpty ? nil : $0 }.map { text in
                    guard let id = Int64(text) else {
                        throw RequestError(status: .badRequest, message: "bad rule id \"\(text)\"")
                    }
                    return id
                }
                if form["action"] == "delete" {
                    guard let id, try await store.removeRule(id) else {
                        throw RequestError(
                            status: .notFound, message: "no category rule has that id; reload the rules page")
                    }
                    return .seeOther("/rules")
                }
                let rule = try ruleFromForm(form)
                if form["action"] == "test" {
                    let test = try await store.testRule(rule)
                    return .html(
                        Pages.rules(try await store.categoryRules(), test: (rule, test), csrf: csrfToken, navigation))
                }
                try await store.saveRule(rule, id: id, learnedFrom: nil, by: reviewer)
                return .seeOther("/rules")
            }
        }

        router.get("/dashboard") { request, _ in
            await page {
                let month = request.uri.queryParameters.get("month").flatMap { $0.isEmpty ? nil : $0 }
                if let month, month.wholeMatch(of: /\d{4}-(0[1-9]|1[0-2])/) == nil {
                    throw RequestError(status: .badRequest, message: "month must look like 2024-05 (got \"\(month)\")")
                }
                let item = request.uri.queryParameters.get("item").map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                let dashboard = Pages.Dashboard(
                    month: month, byMonth: try await store.spending(by: .month, month: nil),
                    byCategory: try await store.spending(by: .category, month: month),
                    byMerchant: Array(try await store.spending(by: .merchant, month: month).prefix(10)),
                    item: item, prices: item.isEmpty ? [] : try await store.priceHistory(item: item, limit: 200))
                return .html(Pages.dashboard(dashboard, navigation))
            }
        }
    }

    /// The nav bar's links: the upload page where this server has one.
    var navigation: Pages.Navigation { Pages.Navigation(hasUploadPage: service != nil) }

    /// Who the page's corrections are recorded as.
    var reviewer: String { options.reviewer }

    /// Runs a page handler and turns refusals into error pages with the right status.
    func page(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as RequestError {
            return .html(Pages.error(error.message, navigation), status: error.status)
        } catch let error as ReviewError {
            let status: HTTPResponse.Status =
                switch error.code {
                case .notFound: .notFound
                case .noExpense: .conflict
                case .invalidValue: .badRequest
                }
            return .html(Pages.error(error.message, navigation), status: status)
        } catch {
            let (status, message) = failure(error, while: "a page")
            return .html(Pages.error(message, navigation), status: status)
        }
    }

    private func receiptID(_ context: BasicRequestContext) throws -> Int64 {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), id > 0 else {
            throw RequestError(status: .notFound, message: "no receipt has id \"\(text)\"; receipt ids are numbers")
        }
        return id
    }

    private func notFound(_ id: Int64) -> RequestError {
        RequestError(status: .notFound, message: "no receipt has id \(id); go back to the queue")
    }

    private func notFailed(_ id: Int64, action: String) -> RequestError {
        RequestError(
            status: .conflict,
            message: "receipt \(id) has no failed job (it was read, or is queued already); nothing was \(action)")
    }

    /// The item edits of a receipt form: `item-N-name|quantity|amount` per shown item (unchanged values are no
    /// change), `remove-item=N` from an item's delete button, and `new-item-*` for an item to add.
    private func itemEdits(_ form: [String: String], receiptID: Int64) throws -> [ItemEdit] {
        let removed = try form["remove-item"].map { text in
            guard let position = Int(text) else {
                throw RequestError(status: .badRequest, message: "receipt \(receiptID): bad item number \"\(text)\"")
            }
            return position
        }
        var edits: [ItemEdit] = []
        let itemField = /item-(\d+)-(name|quantity|amount)/
        let positions = Set(form.keys.compactMap { $0.wholeMatch(of: itemField).flatMap { Int($0.1) } })
        for position in positions.sorted() where position != removed {
            let input = ItemInput(receiptID: receiptID, position: position)
            let field = { (part: String) in form["item-\(position)-\(part)"] }
            edits.append(
                .change(
                    position: position, name: try field("name").map(input.name),
                    quantity: try field("quantity").map(input.quantity), amount: try field("amount").map(input.amount)))
        }
        if let removed { edits.append(.remove(position: removed)) }
        let newName = form["new-item-name"] ?? ""
        let newAmount = form["new-item-amount"] ?? ""
        if !(newName + newAmount).trimmingCharacters(in: .whitespaces).isEmpty {
            let input = ItemInput(receiptID: receiptID, position: nil)
            edits.append(
                .add(
                    name: try input.name(newName), quantity: try input.quantity(form["new-item-quantity"] ?? ""),
                    amount: try input.amount(newAmount)))
        }
        return edits
    }

    private func ruleFromForm(_ form: [String: String]) throws -> CategoryRule {
        guard let target = form["match_on"].flatMap(CategoryRule.Target.init(rawValue:)) else {
            throw RequestError(status: .badRequest, message: "a rule matches on merchant, keyword or item")
        }
        let priorityText = form["priority"].flatMap { $0.isEmpty ? nil : $0 } ?? "50"
        guard let priority = Int(priorityText), (0...10_000).contains(priority) else {
            throw RequestError(
                status: .badRequest,
                message: "priority must be a whole number from 0 to 10000 (got \"\(priorityText)\")")
        }
        return try CategoryRule(
            target: target, pattern: form["pattern"] ?? "", categoryNamed: form["category"] ?? "", priority: priority
        ).validated()
    }

    /// The form fields of a POST, after checking its CSRF token (its origin is checked by `HostCheckMiddleware`).
    /// - Throws: `RequestError` 403 when the token is missing or wrong, 413 when the form is over 256 KB.
    func postedForm(_ request: Request) async throws -> [String: String] {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.formLimit)
        } catch is NIOTooManyBytesError {
            throw RequestError(
                status: .contentTooLarge,
                message: "the form is larger than \(Self.formLimit / 1024) KB; nothing was applied (shorten the text)")
        }
        let form = Self.parseForm(String(buffer: body))
        guard let sent = form["csrf"], constantTimeEquals(sent, csrfToken) else {
            throw RequestError(
                status: .forbidden,
                message:
                    "the form has no valid CSRF token (an old page, or another site); reload the page and try again")
        }
        return form
    }

    /// The largest form a POST may send.
    static let formLimit = 256 * 1024

    /// Decodes `application/x-www-form-urlencoded` text.
    static func parseForm(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    private func login(_ request: Request) async -> Response {
        guard let key = request.uri.queryParameters.get("key"), await loginKeys.redeem(key) else {
            return .html(
                Pages.error(
                    "this login link is not valid (each link works once); restart pipeline review for a new one",
                    navigation),
                status: .unauthorized)
        }
        return .seeOther(
            "/queue",
            headers: [.setCookie: "review_session=\(sessionToken); Path=/; HttpOnly; SameSite=Strict"])
    }
}
