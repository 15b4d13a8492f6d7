import Foundation
import PipelineCore
import ReceiptBench
import Testing

/// The fitted categorizer's arithmetic and its place in the chain: rules, a person's choice, the LLM, the model,
/// the items, else `Other` noted as not sure.
@Suite struct CategoryModelTests {
    /// Two categories; `w:LITRE` is strong evidence of Transportation, `m:KUIH` of Food & Dining.
    let model = CategoryModel(
        categories: [.foodAndDining, .transportation], logPriors: [log(0.5), log(0.5)],
        logLikelihoods: ["w:LITRE": [log(0.01), log(0.2)], "m:KUIH": [log(0.2), log(0.01)]], temperature: 1,
        threshold: 0.8)

    func draft(_ merchant: String) -> ExpenseDraft {
        ExpenseDraft(merchant: ExtractedField(value: merchant, confidence: 0.9, sourceLines: [0]))
    }

    @Test func evidenceIsMerchantWordsPageWordsAndItemCategories() {
        let features = CategoryEvidence.features(
            merchant: "Soon Huat Machinery Sdn. Bhd.", pageText: "PUMP 3 RON95\n22.7 LITRE",
            itemCategories: [
                .fuel, .other, .fuel,
            ])
        #expect(
            features == [
                "g:ACHIN", "g:CHINE", "g:HINER", "g:INERY", "g:MACHI", "i:Fuel", "m:HUAT", "m:MACHINERY", "m:SOON",
                "w:LITRE", "w:PUMP", "w:RON",
            ])
    }

    @Test func probabilitiesFollowTheEvidenceAndTheTemperatureSoftensThem() throws {
        let sure = try #require(model.predict(["w:LITRE", "w:UNKNOWN"]))
        #expect(sure.category == .transportation)
        #expect(abs(sure.probability - 20.0 / 21.0) < 1e-9)
        var softer = model
        softer.temperature = 2
        let soft = try #require(softer.predict(["w:LITRE"]))
        #expect(soft.category == .transportation && soft.probability < sure.probability)
        #expect(model.predict(["w:UNKNOWN"]) == nil, "no known evidence is no prediction")
        #expect(CategoryModel.unfitted.predict(["w:LITRE"]) == nil)
    }

    @Test func theModelDecidesOnlyWhenSureAndWhatIsLeftIsOtherNotedNotSure() {
        let categorizer = Categorizer(rules: [], model: model)
        let fuel = categorizer.categorize(draft("KEDAI ABC"), receiptText: "22.7 LITRE")
        #expect(fuel.expense == .transportation && fuel.source == .model)
        #expect(fuel.uncertaintyNote == nil)

        // Conflicting evidence: 50% each, below the threshold.
        let torn = categorizer.categorize(draft("ABC KUIH"), receiptText: "22.7 LITRE")
        #expect(torn.expense == .other && torn.source == .unsure)
        #expect(torn.uncertaintyNote?.message.hasPrefix(Categorization.notSureNotePrefix + " (best guess ") == true)
    }

    @Test func rulesThenAPersonsChoiceThenTheLLMThenTheModel() {
        let rule = CategoryRule(.merchant(.transportation), pattern: "shell")
        let categorizer = Categorizer(rules: [rule], model: model)
        let llm = MergedDraft(
            draft: ExpenseDraft(), llmCategory: "Shopping", llmItemCategories: [], findings: [], usedLLM: true)

        let ruled = categorizer.categorize(
            draft("SHELL KEPONG"), receiptText: "", suggestedBy: llm, learned: .foodAndDining)
        #expect(ruled.expense == .transportation && ruled.source == .rule)
        let learned = categorizer.categorize(
            draft("ABC KUIH"), receiptText: "22.7 LITRE", suggestedBy: llm, learned: .groceries)
        #expect(learned.expense == .groceries && learned.source == .history)
        let suggested = categorizer.categorize(draft("ABC KUIH"), receiptText: "22.7 LITRE", suggestedBy: llm)
        #expect(suggested.expense == .shopping && suggested.source == .llm)
    }

    /// The committed model is fitted: it names categories for plain evidence of the trades it was fitted on.
    @Test func theCommittedFitKnowsCommonTrades() throws {
        let fitted = CategoryModel.fitted
        #expect(fitted.categories.contains(.foodAndDining) && fitted.threshold > 0 && fitted.threshold < 1)
        let restaurant = try #require(fitted.predict(["w:TABLE", "w:SERVER", "w:CHICKEN", "w:RICE"]))
        #expect(restaurant.category == .foodAndDining)
    }
}

/// The hand-written category labels of the bench fixtures.
@Suite struct CategoryLabelsTests {
    @Test func aLabelLineGivesTheExpenseAndItemCategories() throws {
        let labels = try CategoryLabels(
            parsing:
                "# comment\ntrain\tsroie/sroie_044.jpg\tFood & Dining\t\ndev\twr/a.jpeg\tGroceries\tFood|Beverage\n")
        #expect(labels["sroie/sroie_044.jpg"]?.expense == .foodAndDining)
        #expect(labels["sroie/sroie_044.jpg"]?.items == [])
        #expect(labels["wr/a.jpeg"]?.items == [.food, .beverage])
    }

    @Test func aBadLineIsNamedWithItsProblem() {
        #expect(throws: CategoryLabelsError.self) { try CategoryLabels(parsing: "train\tx.jpg\tSnacks\t\n") }
        do {
            _ = try CategoryLabels(parsing: "# header\ntrain\tx.jpg\tGroceries\tFood|Snacks\n")
            Issue.record("an unknown item category must be refused")
        } catch {
            #expect(error.description.contains("line 2") && error.description.contains("Snacks"))
        }
    }

    /// The project's labels file parses whole and labels every train and dev fixture once.
    @Test func theShippedLabelsCoverTrainAndDev() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("bench/category-labels.tsv")
        let text = try String(contentsOf: file, encoding: .utf8)
        let labels = try CategoryLabels(parsing: text)
        let sets = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t")[0] }
        #expect(labels.labels.count == 772)
        #expect(sets.filter { $0 == "train" }.count == 552 && sets.filter { $0 == "dev" }.count == 220)
    }
}
