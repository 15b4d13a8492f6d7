import Foundation
import PipelineCore
import Testing

/// The per-field trust decision and the committed fit it uses.
@Suite struct AutoAcceptanceTests {
    let reconciler = Reconciler(tolerance: money("0.01"))
    /// Trusts a field whose ranking winner won clearly and that is not read from a slogan.
    func fieldModel<Own>(slogan: TrustFeature<Own>? = nil) -> TrustModel<Own> {
        var weights: [TrustFeature<Own>: Double] = [.shared(.share): 8, .shared(.confirmedByModel): 3]
        if let slogan { weights[slogan] = -5 }
        return TrustModel(intercept: -6, weights: weights, threshold: 0.8)
    }
    var models: TrustModels {
        TrustModels(merchant: fieldModel(slogan: .own(.slogan)), date: fieldModel(), total: fieldModel())
    }

    func balancedDraft(
        merchantShare: Double = 0.95, totalShare: Double = 0.95,
        merchantFeatures: CandidateFeatures<MerchantFeature> = [:]
    ) -> ExpenseDraft {
        var draft = ExpenseDraft(
            merchant: ExtractedField(value: "CORNER CAFE", confidence: 0.9, sourceLines: [0]),
            date: ExtractedField(value: ReceiptDate(year: 2024, month: 3, day: 9), confidence: 0.9, sourceLines: [1]),
            subtotal: ExtractedField(value: money("7.70"), confidence: 0.9, sourceLines: [3]),
            tax: ExtractedField(value: money("0.62"), confidence: 0.9, sourceLines: [4]),
            total: ExtractedField(value: money("8.32"), confidence: 0.9, sourceLines: [5]))
        draft.evidence = ExtractionEvidence(
            totalValue: money("8.32"), merchantValue: "CORNER CAFE",
            dateValue: ReceiptDate(year: 2024, month: 3, day: 9),
            total: CandidateEvidence(probability: totalShare, margin: 3, candidates: 4),
            merchant: CandidateEvidence(
                probability: merchantShare, margin: 1, candidates: 6, features: merchantFeatures),
            date: CandidateEvidence(probability: 0.95, margin: 3, candidates: 1))
        return draft
    }

    @Test func acceptsOnlyWhenEveryKeyFieldIsTrusted() {
        let clear = AutoAcceptance.decide(reconciler.reconcile(balancedDraft()), model: models)
        let doubtful = AutoAcceptance.decide(reconciler.reconcile(balancedDraft(merchantShare: 0.4)), model: models)

        #expect(clear.status == .accepted && clear.untrusted.isEmpty)
        #expect(abs(clear[.merchant]!.probability - 1 / (1 + exp(-(-6 + 8 * 0.95)))) < 1e-9)
        #expect(doubtful.status == .needsReview)
        #expect(doubtful.untrusted.map(\.field) == [.merchant])
        #expect(doubtful.reason.contains("merchant 6%, needs 80%"), "\(doubtful.reason)")
    }

    /// A page is weighed by the models of the engine that read it: the same evidence is trusted on a PP-OCR page
    /// and not on a Tesseract page whose models ask for more.
    @Test func eachReadersPagesAreWeighedByThatReadersModels() {
        var strict = models
        strict.merchant.threshold = 0.99
        let calibrations = TrustCalibrations(ppocr: models, tesseract: strict)
        var draft = balancedDraft()

        draft.evidence?.reader = .ppocr
        let ppocr = AutoAcceptance.decide(reconciler.reconcile(draft), calibrations: calibrations)
        draft.evidence?.reader = .tesseract
        let tesseract = AutoAcceptance.decide(reconciler.reconcile(draft), calibrations: calibrations)

        #expect(ppocr.status == .accepted)
        #expect(tesseract.status == .needsReview && tesseract.untrusted.map(\.field) == [.merchant])
        #expect(tesseract[.merchant]?.threshold == 0.99)
    }

    @Test func anUntrustedMerchantSaysWhyInWords() {
        let slogan = balancedDraft(merchantFeatures: [.slogan: 1, .upperCase: 1])
        let decision = AutoAcceptance.decide(reconciler.reconcile(slogan), model: models)

        #expect(decision.status == .needsReview)
        #expect(decision[.merchant]?.why == "read from a line that looks like a slogan")
        #expect(decision[.date]?.isTrusted == true && decision[.total]?.isTrusted == true)
    }

    /// With nothing pulling a field down, a rival reading is named only when it was close: a reading that leads by far
    /// and is still not trusted lacks evidence, not a rival (it read "another reading was close (… 99% …)").
    @Test(arguments: [
        (0.8, "another reading was close (the chosen one has 80% of the ranking)"),
        (0.896, "the reading leads the others (90% of the ranking), but its evidence falls short of the bar"),
    ])
    func aFieldHeldWithoutAPullSaysWhetherARivalWasClose(share: Double, why: String) {
        var strict = models
        strict.merchant.threshold = 0.999
        let decision = AutoAcceptance.decide(reconciler.reconcile(balancedDraft(merchantShare: share)), model: strict)

        #expect(decision[.merchant]?.isTrusted == false)
        #expect(decision[.merchant]?.why == why)
    }

    @Test func aSecondReaderThatAgreesRaisesTheFieldsTrust() {
        var confirmed = balancedDraft(merchantShare: 0.6)
        let alone = AutoAcceptance.decide(reconciler.reconcile(confirmed), model: models)
        confirmed.evidence?.confirmedByModel = [.merchant]
        let agreed = AutoAcceptance.decide(reconciler.reconcile(confirmed), model: models)

        #expect(alone.status == .needsReview)
        #expect(agreed.status == .accepted)
        #expect(agreed[.merchant]!.probability > alone[.merchant]!.probability)
    }

    @Test func aFieldWithoutRankedEvidenceIsNeverTrusted() {
        // A later stage (the LLM) put another value in place of each ranked winner, or the field is missing.
        var total = balancedDraft()
        total.evidence?.totalValue = money("9.99")
        var merchant = balancedDraft()
        merchant.merchant?.value = "CORNER BAKERY"
        var date = balancedDraft()
        date.date?.value = ReceiptDate(year: 2024, month: 9, day: 3)
        var missing = balancedDraft()
        missing.merchant = nil
        var bare = balancedDraft()
        bare.evidence = nil

        for (draft, fields) in [
            (total, [KeyField.total]), (merchant, [.merchant]), (date, [.date]), (missing, [.merchant]),
            (bare, KeyField.allCases),
        ] {
            let decision = AutoAcceptance.decide(reconciler.reconcile(draft), model: models)
            #expect(decision.status == .needsReview)
            #expect(decision.untrusted.map(\.field) == fields)
            #expect(decision.untrusted.allSatisfy { $0.probability == 0 })
        }
        let noMerchant = AutoAcceptance.decide(reconciler.reconcile(missing), model: models)
        #expect(noMerchant[.merchant]?.why == "no merchant was found on the receipt; enter it by hand")
        // A missing field is said plainly, without a probability of 0% against a threshold.
        let findings = ReviewPolicy.decide(reconciler.reconcile(missing), acceptance: { _ in noMerchant }).findings
        #expect(findings.map(\.message).contains("no merchant was found on the receipt; enter it by hand"))
        #expect(!findings.map(\.message).contains { $0.hasPrefix("merchant not sure") })
    }

    func record(_ draft: ExpenseDraft, extraFindings: [Finding] = []) -> ExpenseRecord {
        ExpenseRecord(
            receiptID: 1, result: reconciler.reconcile(draft),
            categorization: Categorizer(rules: []).categorize(draft, receiptText: ""),
            extractionSource: .rules, extraFindings: extraFindings, ocrText: "", ocrConfidence: 90, llmUsage: nil,
            claimedAt: Date(), timings: [])
    }

    @Test func aReceiptHeldBackOnlyByTheModelSaysWhichFieldAndWhy() {
        var bare = balancedDraft()
        bare.evidence = nil
        var unbalanced = balancedDraft()
        unbalanced.tax = ExtractedField(value: money("0.70"), confidence: 0.9, sourceLines: [4])
        let accept = { (result: ReconciliationResult) in AutoAcceptance.decide(result, model: models) }

        let heldBack = ReviewPolicy.decide(record(bare), acceptance: accept)
        #expect(heldBack.status == .needsReview)
        #expect(heldBack.reasons == [.merchantNotSure, .dateNotSure, .totalNotSure])
        #expect(
            heldBack.findings.first
                == Finding(
                    .notTrusted, field: .merchant,
                    "merchant not sure (0%, needs 80%): it did not come from the ranked candidates, so nothing "
                        + "vouches for it"))
        let failed = ReviewPolicy.decide(record(unbalanced), acceptance: accept)
        #expect(failed.status == .needsReview)
        #expect(failed.reasons == [.unbalanced], "a total that does not add up is not also 'not sure'")
        #expect(failed.findings.contains { $0.code == .summaryToTotal && $0.field == .total }, "\(failed.findings)")
    }

    /// The review decision calls the acceptance decision: what it accepts is accepted when nothing else holds the
    /// receipt, what it holds back waits with the field it does not trust.
    @Test func theReviewDecisionAcceptsWhatAcceptanceAcceptsAndNothingElse() {
        let accept = { (result: ReconciliationResult) in AutoAcceptance.decide(result, model: models) }
        let clear = record(balancedDraft())
        let doubtful = record(balancedDraft(totalShare: 0.3))
        let disagreed = record(
            balancedDraft(),
            extraFindings: [Finding(.llmValueNotPrinted, field: .merchant, "the LLM merchant 'X' is not printed")])

        let accepted = ReviewPolicy.decide(clear, acceptance: accept)
        #expect(accepted.status == .accepted && accepted.reasons.isEmpty && accepted.findings.isEmpty)
        #expect(ReviewPolicy.decide(doubtful, acceptance: accept).reasons == [.totalNotSure])
        #expect(ReviewPolicy.decide(disagreed, acceptance: accept).reasons == [.llmDisagreement])
        #expect(ReviewPolicy.decide(clear, possibleDuplicateOf: 7, acceptance: accept).reasons == [.possibleDuplicate])
    }

    /// A trust budget takes the fitted point with the largest budget not above it (the lowest point when every one
    /// is above), and its thresholds and holds replace the models'.
    @Test func aTrustBudgetTakesTheFittedPointNearestNotAbove() {
        var fitted = models
        fitted.budgets = [
            TrustBudgetPoint(
                maxSilentPer100: 0.5, merchant: 0.95, date: 0.9, total: 0.97, holds: [.unbalanced, .incomplete],
                touchesPer100: 80, silentPer100: 0.4),
            TrustBudgetPoint(
                maxSilentPer100: 1, merchant: 0.9, date: 0.85, total: 0.93, holds: [.incomplete],
                touchesPer100: 60, silentPer100: 1),
            TrustBudgetPoint(
                maxSilentPer100: 3, merchant: 0.6, date: 0.6, total: 0.7, holds: [], touchesPer100: 40,
                silentPer100: 2.9),
        ]

        #expect(fitted.point(forBudget: 2)?.maxSilentPer100 == 1)
        #expect(fitted.point(forBudget: 3)?.maxSilentPer100 == 3)
        #expect(fitted.point(forBudget: 0.1)?.maxSilentPer100 == 0.5)
        let atTwo = fitted.atBudget(2)
        #expect(atTwo.merchant.threshold == 0.9 && atTwo.date.threshold == 0.85 && atTwo.total.threshold == 0.93)
        #expect(atTwo.holds == [.incomplete])
        #expect(models.atBudget(2) == models, "models without fitted points stay as they are")
    }

    /// Items that do not add up hold a receipt whose key fields are trusted only where the budget's point says so;
    /// where it does not, the receipt is accepted and the failed check stays on it as a finding (an optional item
    /// check), and a field the check casts doubt on still needs its own trust.
    @Test func itemsThatDoNotAddUpHoldOnlyWhereTheBudgetSays() {
        var unbalanced = balancedDraft()
        unbalanced.tax = ExtractedField(value: money("0.70"), confidence: 0.9, sourceLines: [4])
        var lenient = models
        lenient.holds = [.incomplete]

        let held = ReviewPolicy.decide(record(unbalanced)) { AutoAcceptance.decide($0, model: models) }
        let accepted = ReviewPolicy.decide(record(unbalanced)) { AutoAcceptance.decide($0, model: lenient) }
        var doubtful = unbalanced
        doubtful.evidence?.total = CandidateEvidence(probability: 0.3, margin: 0, candidates: 4)
        let notSure = ReviewPolicy.decide(record(doubtful)) { AutoAcceptance.decide($0, model: lenient) }

        #expect(held.status == .needsReview && held.reasons == [.unbalanced])
        #expect(accepted.status == .accepted && accepted.reasons.isEmpty)
        #expect(accepted.findings.contains { $0.code == .summaryToTotal }, "\(accepted.findings)")
        #expect(notSure.reasons == [.totalNotSure])
    }

    /// A probability and its threshold never read alike when one is below the other: as many decimals as it takes.
    @Test func aFieldBelowItsThresholdNeverReadsAsReachingIt() {
        let close = FieldTrust(field: .merchant, probability: 0.975, threshold: 0.9801, why: "")
        let far = FieldTrust(field: .merchant, probability: 0.62, threshold: 0.97, why: "")
        let closer = FieldTrust(field: .total, probability: 0.97996, threshold: 0.98, why: "")

        #expect(close.odds == "97.5%, needs 98.0%")
        #expect(far.odds == "62%, needs 97%")
        #expect(closer.odds == "97.996%, needs 98.000%")
    }

    /// Extraction leaves ranked evidence for each key field it reads, so each can be trusted; the fitted models give
    /// each field of a clean receipt (a name with a legal-entity word, a date with a time beside it, a total the
    /// subtotal and tax add up to) a high probability.
    @Test func extractionVouchesForEachKeyFieldItReads() {
        let page = OCRPage(
            text: "CORNER CAFE LLC\n12/03/2024 10:15\nLatte 4.50\nBagel 3.20\nSUBTOTAL 7.70\nTAX 0.62\nTOTAL 8.32")
        let result = reconciler.reconcile(ReceiptExtractor.extract(page))
        let features = AutoAcceptance.namedFeatures(result)

        #expect(result.draft.merchant?.value == "CORNER CAFE LLC")
        #expect(Set(features.keys) == Set(KeyField.allCases))
        #expect(features[.merchant]?["own.companyWord"] == 1)
        #expect(features[.total]?["balanced"] == 1)
        let decision = AutoAcceptance.decide(result)
        #expect(decision.fields.allSatisfy { $0.probability > 0.8 }, "\(decision.reason)")
    }

    /// A page whose first line is a known brand's own name, of a brand operating in the country the page shows, has
    /// its merchant vouched for by the brand whatever the model's probability; below a line of logo noise, of a brand
    /// that does not operate there, or with an OCR slip, it has not (`AutoAcceptance.brandVouch`).
    @Test(
        arguments: [
            ("Panda Express", "", .knownBrand), ("Panda Express", "*158590*\n", nil), ("Kaufland", "", nil),
            ("Panda Expres", "", nil),
        ] as [(String, String, Vouch?)])
    func aKnownBrandOnTheFirstLineVouchesForTheMerchant(_ name: String, _ above: String, _ vouch: Vouch?) {
        let page = OCRPage(
            text: above + name
                + "\n3350 Main St\nIrvine, CA 92618\n03/12/2024 12:15\nOrange Chicken 8.50\nSUBTOTAL 8.50\nTAX 0.66"
                + "\nTOTAL 9.16")
        var model = ExtractionModel.fitted.trust[.ppocr].atBudget(AutoAcceptance.defaultMaxSilentPer100)
        model.merchant.threshold = 1.01
        let result = reconciler.reconcile(ReceiptExtractor.extract(page))
        let merchant = AutoAcceptance.decide(result, model: model)[.merchant]

        #expect(result.draft.merchant?.value == name)
        #expect(merchant?.vouchedBy == vouch)
        #expect(merchant?.isTrusted == (vouch != nil))
        let review = ReviewPolicy.decide(result) { AutoAcceptance.decide($0, model: model) }
        let notes = review.findings.filter { $0.code == .knownBrand }.map(\.message)
        let expected =
            "merchant \(merchant?.odds ?? ""): trusted as a known brand, printed as the page's first line, of the"
            + " receipt's country (Panda Express)"
        #expect(notes == (vouch == nil ? [] : [expected]))
    }

    /// A shop whose name the page prints twice, on top and in the legal entity's line at the foot, has its merchant
    /// vouched for whatever the model's probability; a foot naming another business, a legal name on top printed
    /// again at the foot, or a legal line naming only a word of the header, do not (`AutoAcceptance.namedTwiceVouch`).
    @Test(
        arguments: [
            ("Frischmarkt Hofmann", "Frischmarkt Hofmann GmbH", .namedTwice),
            ("FRISCHMARKT HOFMANN", "Frischmarkt Hofmann GmbH", .namedTwice),
            ("Frischmarkt Hofmann", "Weber Handels GmbH", nil),
            ("Hofmann Handels GmbH", "Hofmann Handels GmbH", nil),
            ("Frischmarkt Hofmann", "Hofmann GmbH", nil),
        ] as [(String, String, Vouch?)])
    func aNamePrintedOnTopAndInTheLegalLineVouchesForTheMerchant(_ top: String, _ legal: String, _ vouch: Vouch?) {
        let page = OCRPage(
            text: top + "\nHauptstraße 5\n10115 Berlin\n12.03.2024 12:15\nButter 1,99 A\nMilch 0,99 A\nSUMME EUR 2,98"
                + "\nBar 5,00\nRückgeld 2,02\n" + legal + "\nUSt-IdNr. DE123456789")
        var model = ExtractionModel.fitted.trust[.ppocr].atBudget(AutoAcceptance.defaultMaxSilentPer100)
        model.merchant.threshold = 1.01
        let result = reconciler.reconcile(ReceiptExtractor.extract(page))
        let merchant = AutoAcceptance.decide(result, model: model)[.merchant]

        #expect(merchant?.vouchedBy == vouch, "\(result.draft.merchant?.value ?? "no merchant")")
        #expect(merchant?.isTrusted == (vouch != nil))
        let review = ReviewPolicy.decide(result) { AutoAcceptance.decide($0, model: model) }
        let notes = review.findings.filter { $0.code == .namedTwice }.map(\.message)
        let expected =
            "merchant \(merchant?.odds ?? ""): trusted, its name printed twice: on top and in the legal entity's line"
        #expect(notes == (vouch == nil ? [] : [expected]))
    }

    /// A total that the payment and a sum (the line items, or the subtotal and tax) both confirm is vouched for by
    /// the page's arithmetic whatever the model's probability, also when it is the subtotal of two items or more for
    /// want of a total line; confirmed by the payment alone, it is not (`AutoAcceptance.arithmeticVouch`).
    @Test(
        arguments: [
            ("Latte 4.50\nBagel 3.82\nTOTAL 8.32\nCASH 20.00\nCHANGE 11.68", .paidAndSummed(.lineItems)),
            (
                "Latte 4.50\nBagel 3.20\nSUBTOTAL 7.70\nTAX 0.62\nTOTAL 8.32\nCASH 20.00\nCHANGE 11.68",
                .paidAndSummed(.summary)
            ),
            ("Latte 4.50\nTOTAL 8.32\nCASH 20.00\nCHANGE 11.68", nil),
            // No total line: the subtotal is the total, and the items and the payment still agree on it.
            ("Latte 4.50\nBagel 3.82\nSUBTOTAL 8.32\nCASH 20.00\nCHANGE 11.68", .paidAndSummed(.lineItems)),
            // One item's amount is the total's own print: the payment alone confirms it.
            ("Breakfast set 8.32\nSUBTOTAL 8.32\nCASH 20.00\nCHANGE 11.68", nil),
        ] as [(String, Vouch?)])
    func aTotalConfirmedByThePaymentAndASumIsVouchedFor(_ body: String, _ vouch: Vouch?) {
        expectTotal(of: body, vouchedBy: vouch, noted: .totalConfirmedTwice)
    }

    /// Without the payment, two line items or more vouch for a total printed on its own line when they add up to it,
    /// or to the subtotal that the tax turns into it, and every check passes; one item (its amount is the total's own
    /// print), a total taken as the items' sum for want of a total line, or a check that fails leave it to the model
    /// (`AutoAcceptance.itemsVouch`).
    @Test(
        arguments: [
            ("Latte 4.50\nBagel 3.82\nTOTAL 8.32", .itemsAddUp(throughSubtotal: false)),
            ("Latte 4.50\nBagel 3.20\nSUBTOTAL 7.70\nTAX 0.62\nTOTAL 8.32", .itemsAddUp(throughSubtotal: true)),
            ("Breakfast set 8.32\nTOTAL 8.32", nil),
            ("Latte 4.50\nBagel 3.82\nSUBTOTAL 8.32", nil),
            ("Latte 4.50\nBagel 3.82\nTOTAL 8.32\nCASH 20.00\nCHANGE 11.00", nil),
            ("Latte 4.50\nBagel 3.20\nSUBTOTAL 7.70\nTAX 0.70\nTOTAL 8.32", nil),
        ] as [(String, Vouch?)])
    func twoItemsOrMoreAddingUpToTheTotalVouchForIt(_ body: String, _ vouch: Vouch?) {
        expectTotal(of: body, vouchedBy: vouch, noted: .totalConfirmedByItems)
    }

    /// A café's page ending in `body` reads the total 8.32; with the total's threshold out of reach only `vouch`
    /// trusts it, and the review decision notes it under `code`.
    func expectTotal(
        of body: String, vouchedBy vouch: Vouch?, noted code: FindingCode,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let page = OCRPage(text: "CORNER CAFE LLC\n12/03/2024 10:15\n" + body)
        var model = ExtractionModel.fitted.trust[.ppocr].atBudget(AutoAcceptance.defaultMaxSilentPer100)
        model.total.threshold = 1.01
        let result = reconciler.reconcile(ReceiptExtractor.extract(page))
        let total = AutoAcceptance.decide(result, model: model)[.total]

        #expect(result.draft.total?.value == money("8.32"), sourceLocation: sourceLocation)
        #expect(total?.vouchedBy == vouch, "\(result.outcome)", sourceLocation: sourceLocation)
        #expect(total?.isTrusted == (vouch != nil), sourceLocation: sourceLocation)
        let review = ReviewPolicy.decide(result) { AutoAcceptance.decide($0, model: model) }
        let notes = review.findings.filter { $0.code == code }.map(\.message)
        #expect(
            notes == vouch.map { ["total \(total?.odds ?? ""): trusted, \($0)"] } ?? [], sourceLocation: sourceLocation)
    }

    /// The generated Swift constants and the JSON the fitting command wrote are the same fit.
    @Test func committedFitMatchesItsJSON() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("scripts/fit_extraction/model.json"))
        let decoded = try JSONDecoder().decode(ExtractionModel.self, from: data)

        #expect(decoded == ExtractionModel.fitted)
        for reader in PageReader.allCases {
            let models = decoded.trust[reader]
            #expect(
                [models.merchant.threshold, models.date.threshold, models.total.threshold].allSatisfy { $0 > 0.5 },
                "\(reader)")
            // The models as committed are set at the default budget, and a larger budget never costs more touches.
            #expect(models.atBudget(AutoAcceptance.defaultMaxSilentPer100) == models, "\(reader)")
            let budgets = models.budgets.map(\.maxSilentPer100)
            #expect(budgets.count >= 5 && budgets == budgets.sorted(), "\(reader)")
            #expect(zip(models.budgets, models.budgets.dropFirst()).allSatisfy { $0.touchesPer100 >= $1.touchesPer100 })
        }
    }
}
