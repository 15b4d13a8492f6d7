import Foundation

/// The rules draft and the LLM's reading merged field by field, with the findings a reviewer needs.
public struct MergedDraft: Sendable, Equatable {
    public var draft: ExpenseDraft
    /// The LLM's expense category, used when the rules found none.
    public var llmCategory: String?
    /// Item categories from the LLM, by item position, when its items were taken.
    public var llmItemCategories: [String?]
    /// What a person must check: a model value the page does not support, a damaged reply (`ReviewPolicy` holds
    /// the expense for each).
    public var findings: [Finding]
    /// What the merge decided and why, for the record (disagreements settled by the page or the arithmetic,
    /// items left out): `FindingCode.llmMerge` notes.
    public var notes: [Finding]
    /// Whether any field came from the LLM.
    public var usedLLM: Bool

    public init(
        draft: ExpenseDraft, llmCategory: String?, llmItemCategories: [String?], findings: [Finding],
        notes: [Finding] = [], usedLLM: Bool
    ) {
        self.draft = draft
        self.llmCategory = llmCategory
        self.llmItemCategories = llmItemCategories
        self.findings = findings
        self.notes = notes
        self.usedLLM = usedLLM
    }

    /// The rules draft alone (no LLM configured).
    public init(rulesOnly draft: ExpenseDraft) {
        self.init(draft: draft, llmCategory: nil, llmItemCategories: [], findings: [], usedLLM: false)
    }
}

/// Merges an `LLMExtraction` into a rules `ExpenseDraft` by evidence, not by source (docs/llm.md).
///
/// Every value the model gives is looked up on the OCR page: amounts among the printed numbers (OCR digit slips
/// allowed), dates in every printed form, names fuzzily, item prices on item lines only. Where the rules and the
/// model agree the rules' field is kept with its lines; where they disagree the value the page and the arithmetic
/// support wins and the disagreement is noted. A model value the page does not support is never stored as money
/// unless its own line is there but unreadable and the other amounts add up to it; otherwise it is a finding.
/// Each field taken from the model carries the page lines that support it. Reconciliation runs on the result.
public enum DraftMerge {
    /// Confidence given to fields taken from the LLM (the model reports none per field).
    static let llmConfidence = 0.85

    /// Merges `llm` into `rules` against `page`, the OCR page both were read from.
    /// - Parameter reconciler: the arithmetic checks that settle disagreements (its tolerance).
    public static func merge(
        rules: ExpenseDraft, llm: LLMExtraction, page: OCRPage, reconciler: Reconciler
    ) -> MergedDraft {
        merge(
            rules: rules, llm: llm, evidence: PageEvidence(page: ReceiptPage(page), rules: rules),
            reconciler: reconciler)
    }

    /// Merges `llm` into `rules` against `evidence`, the page's evidence for these rules (the pipeline builds it
    /// once from the lines the rules read, and checks the reply's amounts with it too).
    public static func merge(
        rules: ExpenseDraft, llm: LLMExtraction, evidence: PageEvidence, reconciler: Reconciler
    ) -> MergedDraft {
        var findings = llm.fieldIssues.map { Finding(.llmFieldRefused, field: $0.field, "LLM field \($0)") }
        if llm.wasTruncated {
            findings.append(Finding(.llmReplyTruncated, "the LLM reply was cut off; fields after the cut were dropped"))
        }
        guard let receipt = llm.receipt else {
            findings.append(Finding(.llmReplyUnusable, "the LLM reply held nothing usable; the rules draft was kept"))
            return MergedDraft(
                draft: rules, llmCategory: nil, llmItemCategories: [], findings: findings, usedLLM: false)
        }
        var merger = Merger(rules: rules, evidence: evidence, reconciler: reconciler)
        merger.findings = findings
        merger.mergeMerchant(receipt.merchant)
        merger.mergeDate(receipt.date)
        merger.mergeCurrency(receipt.currency)
        merger.mergePaymentMethod(receipt.paymentMethod)
        for field in MoneyField.allCases {
            merger.mergeMoney(field, receipt[keyPath: field.llmValue])
        }
        let itemCategories = merger.mergeItems(receipt.items)
        return MergedDraft(
            draft: merger.draft, llmCategory: receipt.category, llmItemCategories: itemCategories,
            findings: merger.findings, notes: merger.notes, usedLLM: merger.usedLLM)
    }

    /// Whether one of two names holds the other (normalized, allowing `PageEvidence`'s OCR slips), the shorter of
    /// at least `PageEvidence.shortName` letters and digits: one reads more of the same line than the other.
    static func oneHoldsTheOther(_ one: String, _ other: String) -> Bool {
        let (first, second) = (TextSimilarity.normalized(one), TextSimilarity.normalized(other))
        let (shorter, longer) = first.count <= second.count ? (first, second) : (second, first)
        return shorter.count >= PageEvidence.shortName && PageEvidence.holds(Array(shorter), in: longer)
    }

    /// Whether `name` begins with `printed` (normalized), of six letters and digits or more, or half of `name`: the
    /// leading part of a name that names it, as the bench scores merchants (docs/behaviour.md).
    static func leads(_ printed: String, _ name: String) -> Bool {
        let (start, whole) = (TextSimilarity.normalized(printed), TextSimilarity.normalized(name))
        return !start.isEmpty && (start.count >= 6 || 2 * start.count >= whole.count) && whole.hasPrefix(start)
    }

    /// The model's payment method words as a `PaymentMethod` (nil for `Other`).
    static func paymentMethod(_ text: String) -> PaymentMethod? {
        let lowered = text.lowercased()
        if lowered.contains("cash") { return .cash }
        if lowered.contains("card") || lowered.contains("visa") || lowered.contains("master") { return .card }
        if lowered.contains("mobile") || lowered.contains("pay") { return .mobile }
        if lowered.contains("voucher") || lowered.contains("gift") { return .voucher }
        return nil
    }
}

/// An amount of the draft the model also reads, in the order they are merged (the total last, so the amounts
/// that check it are settled first).
enum MoneyField: CaseIterable {
    case subtotal, tax, tip, fees, discounts, total

    var receiptField: ReceiptField {
        switch self {
        case .subtotal: .subtotal
        case .tax: .tax
        case .tip: .tip
        case .fees: .fees
        case .discounts: .discounts
        case .total: .total
        }
    }

    var name: String {
        switch self {
        case .subtotal: "subtotal"
        case .tax: "tax"
        case .tip: "tip"
        case .fees: "fees"
        case .discounts: "discounts"
        case .total: "total"
        }
    }

    /// The keyword role of the line that prints it.
    var role: LineRole {
        switch self {
        case .subtotal: .subtotal
        case .tax: .tax
        case .tip: .tip
        case .fees: .fee
        case .discounts: .discount
        case .total: .total
        }
    }

    var draftField: WritableKeyPath<ExpenseDraft, ExtractedField<Decimal>?> {
        switch self {
        case .subtotal: \.subtotal
        case .tax: \.tax
        case .tip: \.tip
        case .fees: \.fees
        case .discounts: \.discounts
        case .total: \.total
        }
    }

    var llmValue: KeyPath<LLMReceipt, Decimal?> {
        switch self {
        case .subtotal: \.subtotal
        case .tax: \.taxAmount
        case .tip: \.tip
        case .fees: \.fees
        case .discounts: \.discounts
        case .total: \.amount
        }
    }
}

/// The merge's working state: the draft so far, what was found and noted.
private struct Merger {
    var draft: ExpenseDraft
    let evidence: PageEvidence
    let reconciler: Reconciler
    var findings: [Finding] = []
    var notes: [Finding] = []
    var usedLLM = false

    init(rules: ExpenseDraft, evidence: PageEvidence, reconciler: Reconciler) {
        self.draft = rules
        self.evidence = evidence
        self.reconciler = reconciler
    }

    /// Marks a key field the model read as the rules did, from lines printed on the page: a second reader's
    /// agreement, which counts in the field's trust (`AutoAcceptance`).
    private mutating func confirm(_ field: KeyField, printed lines: [Int]) {
        guard !lines.isEmpty else { return }
        draft.evidence?.confirmedByModel.insert(field)
    }

    private func model<Value>(_ value: Value, lines: [Int]) -> ExtractedField<Value> {
        ExtractedField(value: value, confidence: DraftMerge.llmConfidence, sourceLines: lines)
    }

    private func lineList(_ lines: [Int]) -> String {
        guard !lines.isEmpty else { return "no line" }
        return (lines.count == 1 ? "line " : "lines ") + lines.map { "\($0 + 1)" }.joined(separator: ", ")
    }

    // MARK: Merchant, date, currency, payment method

    mutating func mergeMerchant(_ name: String?) {
        guard let name else { return }
        let rules = draft.merchant
        if let rules, TextSimilarity.normalized(rules.value) == TextSimilarity.normalized(name) {
            draft.merchant?.confidence = max(rules.confidence, DraftMerge.llmConfidence)
            confirm(.merchant, printed: rules.sourceLines)
            return
        }
        let printed = evidence.lines(naming: name)
        if let rules, !printed.isEmpty, !Set(printed).isDisjoint(with: rules.sourceLines),
            DraftMerge.oneHoldsTheOther(rules.value, name)
        {
            // Both readers name the merchant from the same line, one reading more of it than the other (`Panera
            // Bread` → `PaneraBread Cafe0994`, `OWN BY: CHEF LEE SDN BHD` → `CHEF LEE SDN BHD`): the rules' ranking
            // of that line vouches for the model's name.
            draft.merchant = model(name, lines: printed)
            dropBrand(awayFrom: printed)
            usedLLM = true
            agreeOnTheLine(rules, name)
            notes.append(
                Finding(
                    .llmMerge, field: .merchant,
                    "merchant: the rules read '\(rules.value)' (\(lineList(rules.sourceLines))), the model "
                        + "'\(name)' (\(lineList(printed))), from the same line; took the model's"))
        } else if !printed.isEmpty {
            draft.merchant = model(name, lines: printed)
            dropBrand(awayFrom: printed)
            usedLLM = true
            if let rules, TextSimilarity.similarity(rules.value, name) < PageEvidence.nameSimilarity {
                notes.append(
                    Finding(
                        .llmMerge, field: .merchant,
                        "merchant: the rules read '\(rules.value)' (\(lineList(rules.sourceLines))), the model "
                            + "'\(name)' (\(lineList(printed))); took the model's, printed on the receipt"))
            }
        } else if let rules, TextSimilarity.similarity(rules.value, name) >= PageEvidence.nameSimilarity {
            // The model spells the name the rules read (`CORNER CAF` → `Corner Cafe`): the rules' lines support it,
            // and the two readers agree on which line names the merchant.
            draft.merchant = model(name, lines: rules.sourceLines)
            usedLLM = true
            agreeOnTheLine(rules, name)
        } else if let rules, DraftMerge.leads(rules.value, name) {
            // The model's name begins with the rules' printed one and goes on past what the page shows (`NOVOTEL` →
            // `NOVOTEL NOVOTELPEKANBARU`): the readers agree on the name; the printed reading is kept.
            draft.merchant?.confidence = max(rules.confidence, DraftMerge.llmConfidence)
            confirm(.merchant, printed: rules.sourceLines)
            notes.append(
                Finding(
                    .llmMerge, field: .merchant,
                    "merchant: the model's '\(name)' begins with the rules' '\(rules.value)' "
                        + "(\(lineList(rules.sourceLines))) and is not printed whole; kept the rules'"))
        } else if let rules {
            findings.append(
                Finding(
                    .llmValueNotPrinted, field: .merchant,
                    "the LLM merchant '\(name)' is not in the OCR text; kept the rules' '\(rules.value)' "
                        + "(\(lineList(rules.sourceLines)))"))
        } else {
            draft.merchant = model(name, lines: [])
            usedLLM = true
            findings.append(
                Finding(
                    .llmValueNotPrinted, field: .merchant,
                    "the LLM merchant '\(name)' is not in the OCR text and the rules read none; check it"))
        }
    }

    /// The rules' brand stays only where the model's name is printed on its lines.
    private mutating func dropBrand(awayFrom printed: [Int]) {
        if let brand = draft.brand, Set(brand.sourceLines).isDisjoint(with: printed) { draft.brand = nil }
    }

    /// The model's `name` stands where the rules read `rules` on the same line: while the rules' ranked evidence is
    /// about that reading, it becomes about the model's name, and the model confirms it.
    private mutating func agreeOnTheLine(_ rules: ExtractedField<String>, _ name: String) {
        guard draft.evidence?.merchantValue == rules.value else { return }
        draft.evidence?.merchantValue = name
        confirm(.merchant, printed: rules.sourceLines)
    }

    mutating func mergeDate(_ text: String?) {
        guard let text, let date = ReceiptDate(iso: text) else { return }
        let rules = draft.date
        if let rules, rules.value.year == date.year, rules.value.month == date.month, rules.value.day == date.day {
            draft.date?.confidence = max(rules.confidence, DraftMerge.llmConfidence)
            confirm(.date, printed: rules.sourceLines)
            return
        }
        let printed = evidence.lines(printing: date)
        if !printed.isEmpty {
            draft.date = model(date, lines: printed)
            usedLLM = true
            if let rules {
                notes.append(
                    Finding(
                        .llmMerge, field: .date,
                        "date: the rules read \(rules.value) (\(lineList(rules.sourceLines))), the model \(date) "
                            + "(\(lineList(printed))); took the model's, printed on the receipt"))
            }
        } else if let rules {
            findings.append(
                Finding(
                    .llmValueNotPrinted, field: .date,
                    "the LLM date \(date) is not printed on the receipt in any form; kept the rules' \(rules.value) "
                        + "(\(lineList(rules.sourceLines)))"))
        } else {
            draft.date = model(date, lines: [])
            usedLLM = true
            findings.append(
                Finding(
                    .llmValueNotPrinted, field: .date,
                    "the LLM date \(date) is not printed on the receipt in any form and the rules read none"))
        }
    }

    mutating func mergeCurrency(_ code: String?) {
        guard let code = code?.uppercased() else { return }
        guard let rules = draft.currency else {
            draft.currency = model(code, lines: [])
            usedLLM = true
            return
        }
        if rules.value != code {
            notes.append(
                Finding(
                    .llmMerge, field: .currency,
                    "currency: the rules found \(rules.value), the model \(code); kept \(rules.value)"))
        }
    }

    mutating func mergePaymentMethod(_ text: String?) {
        guard let method = text.flatMap(DraftMerge.paymentMethod) else { return }
        guard let rules = draft.paymentMethod else {
            draft.paymentMethod = model(method, lines: [])
            usedLLM = true
            return
        }
        if rules.value != method {
            notes.append(
                Finding(
                    .llmMerge, field: .paymentMethod,
                    "payment method: the rules read \(rules.value.rawValue) (\(lineList(rules.sourceLines))), the "
                        + "model \(method.rawValue); kept \(rules.value.rawValue)"))
        }
    }

    // MARK: Amounts

    /// How the arithmetic judges a draft: checks failed, then checks passed (and which).
    private typealias Score = (failed: Int, passed: Int, passing: [ReconciliationFinding])

    private func score(_ candidate: ExpenseDraft) -> Score {
        let checks = reconciler.checks(candidate)
        let passing = checks.filter(\.passed)
        return (checks.count - passing.count, passing.count, passing)
    }

    /// The draft with `field` set to `value` (nil clears it).
    private func draft(_ field: MoneyField, _ value: ExtractedField<Decimal>?) -> ExpenseDraft {
        var candidate = draft
        candidate[keyPath: field.draftField] = value
        return candidate
    }

    /// The passing checks that confirm `value` for `field` where `alternative` was not confirmed, or nil when the
    /// arithmetic does not prefer `value` (more checks fail, or none more pass).
    private func arithmeticConfirms(
        _ field: MoneyField, _ value: ExtractedField<Decimal>, over alternative: ExtractedField<Decimal>?
    ) -> [ReconciliationFinding]? {
        Self.confirming(score(draft(field, value)), over: score(draft(field, alternative)))
    }

    /// The checks passing in `with` that do not pass in `without`, or nil when `with` is not the better score
    /// (more checks fail, or none more pass).
    private static func confirming(_ with: Score, over without: Score) -> [ReconciliationFinding]? {
        guard with.failed <= without.failed, with.passed > without.passed || with.failed < without.failed else {
            return nil
        }
        let before = Set(without.passing.map(\.check))
        let confirming = with.passing.filter { !before.contains($0.check) }
        return confirming.isEmpty ? nil : confirming
    }

    mutating func mergeMoney(_ field: MoneyField, _ value: Decimal?) {
        guard let value else { return }
        let rules = draft[keyPath: field.draftField]
        if let rules, rules.value == value {
            draft[keyPath: field.draftField]?.confidence = max(rules.confidence, DraftMerge.llmConfidence)
            if field == .total { confirm(.total, printed: rules.sourceLines) }
            return
        }
        let amount = moneyText(value)
        let printed = evidence.lines(printing: value, role: field.role)
        if !printed.isEmpty {
            let candidate = model(value, lines: printed)
            guard let rules else {
                take(field, candidate)
                return
            }
            let onRoleLine = printed.contains { evidence.lines[$0].role == field.role }
            let rulesOnRoleLine = rules.sourceLines.contains {
                $0 < evidence.lines.count && evidence.lines[$0].role == field.role
            }
            let disagreement =
                "\(field.name): the rules read \(moneyText(rules.value)) (\(lineList(rules.sourceLines))), the model "
                + "\(amount) (\(lineList(printed)))"
            // Each of the two drafts is checked once, then compared both ways.
            let withModel = score(draft(field, candidate))
            let withRules = score(draft)
            if let confirming = Self.confirming(withModel, over: withRules) {
                take(field, candidate)
                notes.append(
                    Finding(
                        .llmMerge, field: field.receiptField,
                        "\(disagreement); took \(amount): " + confirming.map(\.message).joined(separator: "; ")))
            } else if Self.confirming(withRules, over: withModel) == nil, onRoleLine, !rulesOnRoleLine {
                take(field, candidate)
                notes.append(
                    Finding(
                        .llmMerge, field: field.receiptField,
                        "\(disagreement); took \(amount), printed on the \(field.name) line"))
            } else {
                notes.append(
                    Finding(
                        .llmMerge, field: field.receiptField,
                        "\(disagreement); kept \(moneyText(rules.value)), which the page and the arithmetic support "
                            + "at least as well"))
            }
            return
        }
        // Not printed: only where its own line is on the page (unreadable there) and the arithmetic confirms it.
        let labelLines = evidence.lines.filter { $0.role == field.role }.map(\.index)
        let candidate = model(value, lines: rules?.sourceLines ?? [])
        if !labelLines.isEmpty, let confirming = arithmeticConfirms(field, candidate, over: rules) {
            take(field, candidate)
            let read = rules.map { "the OCR text reads \(moneyText($0.value)) there" } ?? "no amount is readable there"
            notes.append(
                Finding(
                    .llmMerge, field: field.receiptField,
                    "\(field.name): the model's \(amount) is not in the OCR text (\(field.name) line: "
                        + "\(lineList(labelLines)); \(read)); taken because the arithmetic confirms it: "
                        + confirming.map(\.message).joined(separator: "; ")))
        } else {
            // Only a total the page does not print holds the receipt: another amount is left out, and the key fields'
            // trust decides (a note says what the model read).
            let kept = rules.map { "kept the rules' \(moneyText($0.value)) (\(lineList($0.sourceLines)))" }
            let finding = Finding(
                field == .total ? .llmValueNotPrinted : .llmMerge, field: field.receiptField,
                "the LLM \(field.name) \(amount) is not in the OCR text"
                    + (kept.map { "; \($0)" } ?? " and no arithmetic confirms it; left out"))
            if field == .total { findings.append(finding) } else { notes.append(finding) }
        }
    }

    private mutating func take(_ field: MoneyField, _ value: ExtractedField<Decimal>) {
        draft[keyPath: field.draftField] = value
        if field == .total { draft.isTotalInferred = false }
        usedLLM = true
    }

    // MARK: Items

    /// Takes the model's items whose price is printed on an item line that resembles their name, when the arithmetic likes them at least as
    /// well as the rules' items; lists the ones left out. Returns the item categories of the items taken.
    mutating func mergeItems(_ items: [LLMReceipt.Item]) -> [String?] {
        guard !items.isEmpty else { return [] }
        var accepted: [(DraftLineItem, String?)] = []
        var dropped: [String] = []
        for item in items {
            guard let price = item.totalPrice else {
                dropped.append("'\(item.name)' (no price)")
                continue
            }
            guard let line = evidence.itemLines(printing: price, named: item.name).first else {
                let anywhere = evidence.lines(printing: price)
                let itemLines = evidence.itemLines(printing: price)
                let reason =
                    anywhere.isEmpty
                    ? "its price is not in the OCR text"
                    : itemLines.isEmpty
                        ? "its price is printed only on \(lineList(anywhere)), not an item line"
                        : "its name is not on \(lineList(itemLines)), which prints its price"
                dropped.append("'\(item.name)' \(moneyText(price)) (\(reason))")
                continue
            }
            let unitPrice = item.unitPrice.flatMap { unit in
                unit == price || !evidence.lines(printing: unit).isEmpty ? unit : nil
            }
            accepted.append(
                (
                    DraftLineItem(
                        name: item.name, quantity: unitPrice == nil ? nil : item.quantity, unitPrice: unitPrice,
                        totalPrice: price, confidence: DraftMerge.llmConfidence, sourceLines: [line]),
                    item.category
                ))
        }
        let droppedNote = dropped.isEmpty ? "" : "; left out: " + dropped.joined(separator: ", ")
        guard !accepted.isEmpty else {
            notes.append(
                Finding(
                    .llmMerge, field: .items,
                    "items: none of the model's \(items.count) items is printed on an item line" + droppedNote))
            return []
        }
        var withModelItems = draft
        withModelItems.items = accepted.map(\.0)
        let modelScore = score(withModelItems)
        let rulesScore = score(draft)
        let prefersModel =
            draft.items.isEmpty || modelScore.failed < rulesScore.failed
            || modelScore.failed == rulesScore.failed
                && (modelScore.passed > rulesScore.passed || modelScore.passed == rulesScore.passed && dropped.isEmpty)
        guard prefersModel else {
            notes.append(
                Finding(
                    .llmMerge, field: .items,
                    "items: kept the rules' \(draft.items.count) items; the model's \(accepted.count) printed items "
                        + "add up no better" + droppedNote))
            return []
        }
        draft.items = accepted.map(\.0)
        usedLLM = true
        if !dropped.isEmpty {
            notes.append(
                Finding(
                    .llmMerge, field: .items, "items: took the model's \(accepted.count) printed items" + droppedNote))
        }
        return accepted.map(\.1)
    }

}
