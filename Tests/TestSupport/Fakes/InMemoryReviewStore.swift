import Foundation
import PipelineCore

/// The review ports' fake, one actor for all four (`ReviewQueueStore`, `CorrectionStore`, `CategorizationStore`,
/// `SpendingReportStore`): expenses committed from `ExpenseRecord`s the way a worker commits them, held in memory,
/// so the review page's logic is tested without PostgreSQL.
///
/// It keeps the ports' promises as the database does: status and review reasons are `ReviewPolicy`'s, with an earlier
/// expense of the same merchant, date and total (or a similar page with the same total or date) marking a possible
/// duplicate; the queue is the needs-review expenses oldest first; a person's latest value of a field, the person's
/// list of items and their decision are what every read returns, also after the receipt is committed again (a
/// reprocess), by the same rule (`PersonCorrections`); corrections are stamped by the clock given. Unlike the
/// database store it learns no merchant names from corrections or accepted expenses (the pipeline asks
/// `LearnedMerchants` for those before it commits): each corrected merchant counts as one alias, never used.
public actor InMemoryReviewStore: ReviewStore {
    /// One stored receipt and, once committed, its expense.
    private struct Entry {
        var fileName: String
        var image: ReceiptImage
        var expense: Expense?
        var corrections: [Correction] = []
        /// The person's list of items, once they edited it.
        var personItems: [EditableItem]?
        /// Its dead job's last error and attempts, while it has one.
        var failure: (reason: String, attempts: Int, at: Date, stage: FailedStage?)?

        /// The latest correction of `field`.
        func correction(_ field: CorrectionField) -> Correction? { corrections.last { $0.field == field } }

        /// What a person set, kept over the machine's values as the database store keeps it.
        var person: PersonCorrections { PersonCorrections(corrections) }

        /// A field's value as it stands.
        func value(_ field: CorrectableField) -> String? { person.value(field, machine: expense?.values[field] ?? nil) }

        var status: ExpenseStatus? { expense.map { person.status(machine: $0.status) } }

        var items: [EditableItem] { personItems ?? expense?.items ?? [] }

        /// Why it waits.
        var reasons: [ReviewReason] { person.reasons(machine: expense?.reasons ?? []) }
    }

    /// What the machine committed for a receipt.
    private struct Expense {
        var values: [CorrectableField: String?]
        var sources: [CorrectableField: ExtractedSource]
        var status: ExpenseStatus
        var outcome: ReconciliationOutcome
        var extractionSource: ExtractionSource
        var findings: [Finding]
        var reasons: [ReviewReason]
        var dateIsAmbiguous: Bool
        var possibleDuplicateOf: Int64?
        var items: [EditableItem]
        var ocrText: String
        var layout: OCRLayout?
        var fingerprint: PageFingerprint?
        /// The brand read beside the merchant (`expenses.brand`).
        var brand: String?
        var committedAt: Date
    }

    private struct ExtractedSource {
        var confidence: Double
        var lines: [Int]
        /// For a key field, the probability it needed (the confidence is then the trust the decision weighed).
        var trustThreshold: Double?
        /// For a key field, what trusted it whatever its probability.
        var vouchedBy: String?
    }

    private var entries: [Int64: Entry] = [:]
    private var rules: [StoredCategoryRule] = []
    private var nextRuleID: Int64 = 1
    private let clock: PipelineClock

    /// - Parameters:
    ///   - rules: the category rules it starts with (the database starts with `SeededCategoryRules.rules`).
    ///   - clock: stamps commits and corrections.
    public init(rules: [CategoryRule] = [], clock: PipelineClock = .system) {
        self.clock = clock
        for rule in rules {
            self.rules.append(StoredCategoryRule(id: nextRuleID, rule: rule, learnedFrom: nil))
            nextRuleID += 1
        }
    }

    // MARK: - Filling it

    /// Stores a receipt with no expense yet (its job is queued, or dead).
    /// - Returns: its receipt id.
    public func add(fileName: String, image: ReceiptImage) -> Int64 {
        let id = (entries.keys.max() ?? 0) + 1
        entries[id] = Entry(fileName: fileName, image: image)
        return id
    }

    /// Marks a receipt with no expense as failed: its job dead after `attempts`, the last error `reason`, at `stage`.
    public func fail(_ receiptID: Int64, reason: String, attempts: Int = 1, stage: FailedStage? = nil) {
        entries[receiptID]?.failure = (reason, attempts, clock.now(), stage)
    }

    /// Sets the machine's decision on a committed expense, where a test states it instead of reaching it.
    public func setMachineDecision(_ receiptID: Int64, status: ExpenseStatus, reasons: [ReviewReason]) {
        entries[receiptID]?.expense?.status = status
        entries[receiptID]?.expense?.reasons = reasons
    }

    /// Commits a record's expense for a stored receipt, as the worker's commit does: the first commit stays unless
    /// `replacing` (a reprocess), and a person's corrections stay over either.
    /// - Parameter committedAt: when it was committed; the clock's time when nil.
    public func commit(_ record: ExpenseRecord, committedAt: Date? = nil, replacing: Bool = false) throws {
        guard var entry = entries[record.receiptID] else { throw ReviewError.unknownReceipt(record.receiptID) }
        guard entry.expense == nil || replacing else { return }
        let draft = record.result.draft
        // Against the other expenses as they stand, a person's values included.
        let earlier = entries.compactMap { id, other -> PossibleDuplicate.Earlier? in
            guard id != record.receiptID, let expense = other.expense else { return nil }
            return PossibleDuplicate.Earlier(
                id: id, merchant: other.value(.merchant), date: other.value(.date),
                total: other.value(.total).flatMap { Decimal(string: $0, locale: Self.posix) },
                page: expense.fingerprint)
        }
        let duplicate = PossibleDuplicate.first(of: draft, page: record.pageFingerprint, among: earlier)
        let review = ReviewPolicy.decide(record, possibleDuplicateOf: duplicate)
        var sources: [CorrectableField: ExtractedSource] = [:]
        func source<T>(_ field: CorrectableField, _ extracted: ExtractedField<T>?) {
            sources[field] = extracted.map { ExtractedSource(confidence: $0.confidence, lines: $0.sourceLines) }
        }
        source(.merchant, draft.merchant)
        source(.date, draft.date)
        source(.currency, draft.currency)
        source(.paymentMethod, draft.paymentMethod)
        let amounts: [(CorrectableField, ExtractedField<Decimal>?)] = [
            (.subtotal, draft.subtotal), (.discounts, draft.discounts), (.fees, draft.fees), (.tax, draft.tax),
            (.tip, draft.tip), (.total, draft.total),
        ]
        var values: [CorrectableField: String?] = [
            .merchant: draft.merchant?.value, .date: Self.text(draft.date), .currency: draft.currency?.value,
            .category: record.categorization.expense.rawValue, .paymentMethod: draft.paymentMethod?.value.rawValue,
        ]
        for (field, amount) in amounts {
            values[field] = amount.map { moneyText($0.value) }
            source(field, amount)
        }
        // As the commit stores them: a key field's sureness is the probability the acceptance decision weighed.
        for trust in review.acceptance.fields {
            guard let field = CorrectableField(rawValue: trust.field.rawValue), sources[field] != nil else { continue }
            sources[field]?.confidence = trust.storedProbability
            sources[field]?.trustThreshold = trust.threshold
            sources[field]?.vouchedBy = trust.vouchedBy?.description
        }
        let items = draft.items.enumerated().map { index, item in
            EditableItem.machine(
                position: index + 1, name: item.name, quantity: item.quantity, unitPrice: item.unitPrice,
                amount: item.totalPrice,
                category: index < record.categorization.items.count ? record.categorization.items[index] : .other)
        }
        entry.expense = Expense(
            values: values, sources: sources, status: review.status, outcome: record.result.outcome,
            extractionSource: record.extractionSource, findings: review.findings, reasons: review.reasons,
            dateIsAmbiguous: draft.date?.value.isAmbiguous ?? false, possibleDuplicateOf: duplicate, items: items,
            ocrText: record.ocrText, layout: record.ocrLayout, fingerprint: record.pageFingerprint,
            brand: draft.brand?.value, committedAt: committedAt ?? clock.now())
        if let rendered = record.renderedPage { entry.image = ReceiptImage(format: .jpeg, bytes: Array(rendered)) }
        entries[record.receiptID] = entry
    }

    private static func text(_ date: ExtractedField<ReceiptDate>?) -> String? {
        date.map { String(format: "%04d-%02d-%02d", $0.value.year, $0.value.month, $0.value.day) }
    }

    // MARK: - ReviewQueueStore

    /// Needs-review expenses in queue order: oldest commit first.
    private var waiting: [(id: Int64, expense: Expense)] {
        entries.compactMap { id, entry in
            guard entry.status == .needsReview, let expense = entry.expense else { return nil }
            return (id, expense)
        }.sorted { ($0.expense.committedAt, $0.id) < ($1.expense.committedAt, $1.id) }
    }

    public func queue(_ query: ReviewQueueQuery) async throws -> ReviewQueue {
        let waiting = waiting
        var counts: [ReviewReason: Int] = [:]
        for reason in waiting.flatMap(\.expense.reasons) { counts[reason, default: 0] += 1 }
        let rows = waiting.filter { query.reason.map($0.expense.reasons.contains) ?? true }
            .dropFirst(query.offset).prefix(query.limit)
            .map { id, expense in
                let entry = entries[id]!
                return ReviewQueueRow(
                    receiptID: id, fileName: entry.fileName, merchant: entry.value(.merchant),
                    date: entry.value(.date), total: entry.value(.total), currency: entry.value(.currency),
                    reasons: entry.reasons, committedAt: expense.committedAt)
            }
        return ReviewQueue(rows: Array(rows), total: waiting.count, counts: counts)
    }

    public func nextInQueue(after receiptID: Int64) async throws -> Int64? {
        let others = waiting.filter { $0.id != receiptID }
        guard let current = entries[receiptID]?.expense else { return others.first?.id }
        let later = others.first { ($0.expense.committedAt, $0.id) > (current.committedAt, receiptID) }
        return (later ?? others.first)?.id
    }

    public func receipt(_ receiptID: Int64) async throws -> ReceiptDetail? {
        guard let entry = entries[receiptID] else { return nil }
        guard let expense = entry.expense, let status = entry.status else { throw ReviewError.noExpense(receiptID) }
        let fields = CorrectableField.allCases.map { field in
            let correction = entry.correction(.field(field))
            let source = correction == nil ? expense.sources[field] : nil
            return FieldReading(
                field: field, value: entry.value(field), confidence: source?.confidence,
                evidenceLines: source?.lines ?? [], correction: correction, trustThreshold: source?.trustThreshold,
                vouchedBy: source?.vouchedBy)
        }
        let items = entry.items.enumerated().map { index, item in
            ReviewItem(
                position: index + 1, name: item.name, quantity: item.quantity.map { "\($0)" },
                unitPrice: item.unitPrice.map(moneyText), totalPrice: item.amount.map(moneyText),
                category: item.category)
        }
        return ReceiptDetail(
            receiptID: receiptID, fileName: entry.fileName, imageFormat: entry.image.format, status: status,
            validationOutcome: expense.outcome, extractionSource: expense.extractionSource, fields: fields,
            findings: expense.findings, reasons: entry.reasons,
            dateIsAmbiguous: entry.person.dateIsAmbiguous(machine: expense.dateIsAmbiguous),
            possibleDuplicateOf: expense.possibleDuplicateOf, items: items,
            ocrLines: expense.ocrText.isEmpty ? [] : expense.ocrText.components(separatedBy: "\n"),
            layout: expense.layout, corrections: entry.corrections)
    }

    public func image(_ receiptID: Int64) async throws -> ReceiptImage? {
        entries[receiptID]?.image
    }

    // MARK: - FailedReceiptStore

    public func failedReceipts(limit: Int) async throws -> [FailedReceipt] {
        let failed = entries.keys.compactMap { failedEntry($0) }
        return Array(
            failed.sorted { ($0.failedAt ?? .distantPast, $0.receiptID) > ($1.failedAt ?? .distantPast, $1.receiptID) }
                .prefix(limit))
    }

    public func failedReceipt(_ receiptID: Int64) async throws -> FailedReceipt? { failedEntry(receiptID) }

    public func retryFailed(_ receiptID: Int64) async throws -> Bool {
        guard entries[receiptID]?.failure != nil else { return false }
        entries[receiptID]?.failure = nil
        return true
    }

    public func deleteFailed(_ receiptID: Int64) async throws -> Bool {
        guard failedEntry(receiptID) != nil else { return false }
        entries[receiptID] = nil
        return true
    }

    private func failedEntry(_ receiptID: Int64) -> FailedReceipt? {
        guard let entry = entries[receiptID], entry.expense == nil, let failure = entry.failure else { return nil }
        return FailedReceipt(
            receiptID: receiptID, fileName: entry.fileName, reason: failure.reason, attempts: failure.attempts,
            failedAt: failure.at, format: entry.image.format, stage: failure.stage)
    }

    // MARK: - CorrectionStore

    @discardableResult
    public func review(
        _ receiptID: Int64, corrections changes: [CorrectableField: String?], items edits: [ItemEdit],
        decision: ReviewDecision?, by person: String
    ) async throws -> ReviewOutcome {
        guard var entry = entries[receiptID] else { throw ReviewError.unknownReceipt(receiptID) }
        guard entry.expense != nil else { throw ReviewError.noExpense(receiptID) }
        var recorded: [Correction] = []
        func record(_ field: CorrectionField, old: String?, new: String?) {
            // An entry keeps what the machine read first, however often a person changed the field since.
            let machineValue = entry.corrections.first { $0.field == field }.map(\.machineValue) ?? old
            recorded.append(
                Correction(
                    field: field, machineValue: machineValue, personValue: new, correctedBy: person,
                    correctedAt: clock.now()))
        }
        for field in CorrectableField.allCases {
            guard let change = changes[field] else { continue }
            let old = entry.value(field)
            guard !field.isUnchanged(from: old, to: change) else { continue }
            record(.field(field), old: old, new: change)
        }
        if !edits.isEmpty {
            let editable = entry.personItems ?? entry.items
            let outcome = try ItemEdit.apply(edits, to: editable, receiptID: receiptID)
            if !outcome.entries.isEmpty {
                entry.personItems = outcome.items
                for item in outcome.entries {
                    recorded.append(
                        Correction(
                            field: .item, machineValue: item.machineValue, personValue: item.personValue,
                            correctedBy: person, correctedAt: clock.now()))
                }
            }
        }
        if let decision, let status = entry.status, status != decision.status {
            record(.status, old: status.rawValue, new: decision.status.rawValue)
        }
        entry.corrections += recorded
        entries[receiptID] = entry
        // No worker reads receipts here: a confirmation queues nothing to read again.
        return ReviewOutcome(corrections: recorded)
    }

    // MARK: - CategorizationStore

    public func categoryRules() async throws -> [StoredCategoryRule] {
        rules.sorted { ($0.rule.priority, $0.id) < ($1.rule.priority, $1.id) }
    }

    @discardableResult
    public func saveRule(_ rule: CategoryRule, id: Int64?, learnedFrom receiptID: Int64?, by person: String)
        async throws -> Int64
    {
        let rule = try rule.validated()
        if let id, !rules.contains(where: { $0.id == id }) {
            throw ReviewError(.notFound, "no category rule has id \(id); list them with: pipeline categories list")
        }
        let index = rules.firstIndex { stored in
            id.map { stored.id == $0 } ?? (stored.rule.target == rule.target && stored.rule.pattern == rule.pattern)
        }
        guard let index else {
            rules.append(StoredCategoryRule(id: nextRuleID, rule: rule, learnedFrom: receiptID))
            nextRuleID += 1
            return nextRuleID - 1
        }
        rules[index].rule = rule
        rules[index].learnedFrom = receiptID ?? rules[index].learnedFrom
        return rules[index].id
    }

    @discardableResult
    public func removeRule(_ id: Int64) async throws -> Bool {
        let before = rules.count
        rules.removeAll { $0.id == id }
        return rules.count < before
    }

    public func categorizationSamples(since: Date?, limit: Int) async throws -> [CategorizationSample] {
        entries.compactMap { id, entry -> (Date, CategorizationSample)? in
            guard let expense = entry.expense, entry.status != .rejected,
                expense.committedAt >= since ?? .distantPast
            else { return nil }
            let sample = CategorizationSample(
                receiptID: id, merchant: entry.value(.merchant), ocrText: expense.ocrText,
                itemNames: entry.items.map(\.name),
                category: entry.value(.category).flatMap(ExpenseCategory.init(rawValue:)) ?? .other,
                itemCategories: entry.items.map(\.category))
            return (expense.committedAt, sample)
        }
        .sorted { ($0.0, $0.1.receiptID) > ($1.0, $1.1.receiptID) }
        .prefix(limit).map(\.1)
    }

    @discardableResult
    public func applyCategories(_ changes: [CategoryChange]) async throws -> Int {
        var changed = 0
        for change in changes {
            guard var entry = entries[change.receiptID], var expense = entry.expense else { continue }
            if expense.values[.category] != change.category.rawValue {
                expense.values[.category] = change.category.rawValue
                // A person's category stays.
                if !entry.person.corrected(.category) { changed += 1 }
            }
            for (index, category) in change.itemCategories.enumerated() where index < expense.items.count {
                expense.items[index].category = category
                if let personItems = entry.personItems, index < personItems.count {
                    entry.personItems?[index].category = category
                }
            }
            entry.expense = expense
            entries[change.receiptID] = entry
        }
        return changed
    }

    // MARK: - SpendingReportStore

    public func spending(by grouping: SpendingGrouping, month: String?) async throws -> [SpendingRow] {
        var groups: [String: (key: String, currency: String?, expenses: Int, total: Decimal)] = [:]
        for entry in entries.values where entry.status == .accepted {
            guard let total = entry.value(.total).flatMap({ Decimal(string: $0, locale: Self.posix) }) else {
                continue
            }
            let expenseMonth = entry.value(.date).map { String($0.prefix(7)) }
            if let month, expenseMonth != month { continue }
            let key =
                switch grouping {
                case .month: expenseMonth ?? "undated"
                case .category: entry.value(.category) ?? ExpenseCategory.other.rawValue
                case .merchant: entry.expense?.brand ?? entry.value(.merchant) ?? "unknown"
                }
            let currency = entry.value(.currency)
            let group = key + "\u{0}" + (currency ?? "")
            var row = groups[group] ?? (key, currency, 0, 0)
            row.expenses += 1
            row.total += total
            groups[group] = row
        }
        let rows = groups.values.map {
            SpendingRow(key: $0.key, currency: $0.currency, expenses: $0.expenses, total: $0.total)
        }
        return grouping == .month
            ? rows.sorted { ($0.key, $0.currency ?? "") < ($1.key, $1.currency ?? "") }
            : rows.sorted { $0.total != $1.total ? $0.total > $1.total : $0.key < $1.key }
    }

    public func priceHistory(item: String, limit: Int) async throws -> [PricePoint] {
        let points = entries.filter { $0.value.expense != nil && $0.value.status == .accepted }
            .flatMap { id, entry in
                entry.items.enumerated().filter { $0.element.name.localizedCaseInsensitiveContains(item) }
                    .map { position, item in
                        (
                            date: entry.value(.date), id: id, position: position,
                            point: PricePoint(
                                receiptID: id, date: entry.value(.date), merchant: entry.value(.merchant),
                                itemName: item.name, quantity: item.quantity, unitPrice: item.unitPrice,
                                totalPrice: item.amount, currency: entry.value(.currency))
                        )
                    }
            }
        // Undated purchases last, as the database orders them.
        return points.sorted { ($0.date ?? "~", $0.id, $0.position) < ($1.date ?? "~", $1.id, $1.position) }
            .prefix(limit).map(\.point)
    }

    public func learningCounters() async throws -> LearningCounters {
        let corrections = entries.values.flatMap(\.corrections)
        return LearningCounters(
            merchantAliases: entries.values.filter { $0.person.corrected(.merchant) }.count,
            merchantAliasUses: 0, learnedRules: rules.filter { $0.learnedFrom != nil }.count, learnedRuleMatches: 0,
            corrections: corrections.count)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}
