import Foundation

/// One candidate as the fitting tool sees it: what the field would read if it won, and its features.
public struct ScoredCandidate<Feature: ExtractionFeature>: Sendable, Equatable, Codable {
    /// The field's value as the bench prints it (`12.50`, `2018-03-24`, the merchant's name).
    public var value: String
    public var features: CandidateFeatures<Feature>
}

/// Every candidate of the three key fields on one page, for fitting the weights (`pipeline extraction-features`).
public struct ExtractionCandidates: Sendable, Equatable, Codable {
    public var total: [ScoredCandidate<TotalFeature>] = []
    public var merchant: [ScoredCandidate<MerchantFeature>] = []
    public var date: [ScoredCandidate<DateFeature>] = []
}

/// Turns an OCR page into a draft expense: candidates from rules, ranked by fitted weights. Pure, no I/O, safe to
/// call from any thread.
public enum ReceiptExtractor {
    /// Extracts every field it can find; fields it cannot find stay nil rather than guessed.
    /// - Parameter known: merchants people confirmed before; a line that reads like one offers its name.
    public static func extract(_ page: OCRPage, known: [KnownMerchant] = [], model: ExtractionModel = .fitted)
        -> ExpenseDraft
    {
        extract(ReceiptPage(page), known: known, model: model)
    }

    /// Extracts from a page already read into lines (the pipeline keeps it for the LLM merge).
    public static func extract(_ page: ReceiptPage, known: [KnownMerchant] = [], model: ExtractionModel = .fitted)
        -> ExpenseDraft
    {
        extractWithCandidates(page, known: known, model: model).draft
    }

    /// The draft and every candidate the model chose among.
    /// - Parameter reader: the engine that read `page`.
    public static func extractWithCandidates(
        _ page: OCRPage, reader: PageReader, known: [KnownMerchant] = [], model: ExtractionModel = .fitted
    ) -> (draft: ExpenseDraft, candidates: ExtractionCandidates) {
        extractWithCandidates(ReceiptPage(page, reader: reader), known: known, model: model)
    }

    private static func extractWithCandidates(_ page: ReceiptPage, known: [KnownMerchant], model: ExtractionModel)
        -> (draft: ExpenseDraft, candidates: ExtractionCandidates)
    {
        let lines = page.lines
        let headerLines = page.headerLines
        var draft = ExpenseDraft()
        var candidates = ExtractionCandidates()
        var evidence = ExtractionEvidence(pageConfidence: page.page.meanConfidence / 100, reader: page.reader)
        draft.amountsInText = lines.flatMap { $0.amounts.filter(\.isMoney).map(\.value) }
        let currency = CurrencyDetector.detect(lines: lines.map(\.text))
        let country = CountryEvidence.read(lines: lines, currency: currency)
        let countries = CountryEvidence.countries(lines: lines, currency: currency)
        candidates.merchant = MerchantExtractor.candidates(
            lines: lines, headerLines: headerLines, known: known, countries: countries
        ).map { ScoredCandidate(value: $0.name, features: $0.features) }
        if let (merchant, merchantEvidence, brand, isNamedTwice) = MerchantExtractor.extract(
            lines: lines, headerLines: headerLines, known: known, countries: countries, model: model)
        {
            draft.merchant = merchant
            draft.brand = brand.map {
                ExtractedField(value: $0.name, confidence: merchant.confidence, sourceLines: merchant.sourceLines)
            }
            evidence.merchantValue = merchant.value
            evidence.merchant = merchantEvidence
            evidence.merchantNamedTwice = isNamedTwice
            if merchantEvidence.features[.knownMerchant] != nil,
                let confirmed = known.first(where: {
                    TextSimilarity.normalized($0.name) == TextSimilarity.normalized(merchant.value)
                })
            {
                draft.notes.append(Finding(.learnedMerchant, field: .merchant, confirmed.note))
            }
        }

        if let currency {
            draft.currency = ExtractedField(
                value: currency.code, confidence: currency.confidence,
                sourceLines: currency.lineIndex.map { [$0] } ?? [])
        } else if let implied = country.impliedCurrency {
            // No symbol or code: the country's currency (EUR for a German VAT id or German keywords).
            draft.currency = ExtractedField(value: implied, confidence: 0.5, sourceLines: [])
        }
        candidates.date = DateExtractor.candidates(lines: lines, monthFirst: country.isMonthFirst).map {
            ScoredCandidate(value: "\($0.date)", features: $0.features)
        }
        if let (date, notes, dateEvidence) = DateExtractor.extract(lines: lines, country: country, model: model) {
            draft.date = date
            draft.notes += notes
            evidence.dateValue = date.value
            evidence.date = dateEvidence
        }

        // Items start below the name; a name read from the web address at the foot does not end the header.
        let headerEnd = (draft.merchant?.sourceLines.filter { $0 < MerchantExtractor.searchDepth }.max() ?? -1) + 1
        draft.items = LineItemExtractor.extract(lines: lines, headerEnd: headerEnd)
        let itemsSum = draft.items.isEmpty ? nil : draft.items.map(\.totalPrice).reduce(0, +)
        let totals = TotalsExtractor.extract(lines: lines, itemsSum: itemsSum, model: model)
        candidates.total = totals.candidates.map { ScoredCandidate(value: moneyText($0.value), features: $0.features) }
        draft.total = totals.total
        draft.isTotalInferred = totals.isTotalInferred
        evidence.totalValue = totals.total?.value
        evidence.total = totals.evidence
        draft.subtotal = totals.subtotal
        draft.items = LineItemExtractor.withoutSumLine(
            draft.items, sums: [totals.total?.value, totals.subtotal?.value].compactMap { $0 })
        draft.tax = totals.tax
        draft.tip = totals.tip
        draft.fees = totals.fees
        draft.discounts = totals.discounts
        draft.rounding = totals.rounding
        draft.amountTendered = totals.tendered
        draft.change = totals.change
        draft.vatSummary = totals.vatTable?.summary
        draft.printedSummary = totals.printedSummary
        draft.paymentMethod = PaymentMethodExtractor.extract(lines: lines)
        if lines.contains(where: { $0.amounts.contains(where: \.isAmbiguous) }) {
            draft.notes.append(
                Finding(.readingNote, "some amounts like 1,234 could be read with a decimal comma; read as thousands"))
        }
        draft.evidence = evidence
        draft.notes += LayoutAgreement.apply(to: &draft, lines: lines, known: known)
        return (draft, candidates)
    }
}
