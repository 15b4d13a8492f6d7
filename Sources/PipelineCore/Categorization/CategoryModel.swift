import Foundation

/// A multinomial naive Bayes model over `CategoryEvidence` features, with a calibrated probability: fitted on the
/// train fixtures by `scripts/fit-categories` (docs/categories.md), committed as `CategoryModel.fitted`.
public struct CategoryModel: Sendable, Equatable {
    /// The categories the model can name, in the order of every weight list.
    public var categories: [ExpenseCategory]
    /// Log prior of each category.
    public var logPriors: [Double]
    /// Log likelihood of each known feature under each category (smoothed).
    public var logLikelihoods: [String: [Double]]
    /// Divides the summed log scores before the softmax, so the probabilities are calibrated (fitted).
    public var temperature: Double
    /// Below this probability the model's best category is not trusted: the expense stays `Other`, noted.
    public var threshold: Double

    public init(
        categories: [ExpenseCategory], logPriors: [Double], logLikelihoods: [String: [Double]], temperature: Double,
        threshold: Double
    ) {
        self.categories = categories
        self.logPriors = logPriors
        self.logLikelihoods = logLikelihoods
        self.temperature = temperature
        self.threshold = threshold
    }

    /// A model that knows nothing and never predicts: for dumping the evidence a model is fitted on, and for tests.
    public static let unfitted = CategoryModel(
        categories: [], logPriors: [], logLikelihoods: [:], temperature: 1, threshold: 1)

    /// The model's best category and its calibrated probability.
    public struct Prediction: Sendable, Equatable {
        public var category: ExpenseCategory
        public var probability: Double

        public init(category: ExpenseCategory, probability: Double) {
            self.category = category
            self.probability = probability
        }

        /// `probability` as a short percentage for notes (`62%`).
        public var percent: String { "\(Int((probability * 100).rounded()))%" }
    }

    /// The most probable category given the features; nil when the model has no categories or knows none of the
    /// features (no evidence is not a reason to guess the most common category).
    public func predict(_ features: [String]) -> Prediction? {
        guard !categories.isEmpty, logPriors.count == categories.count else { return nil }
        let known = features.compactMap { logLikelihoods[$0] }.filter { $0.count == categories.count }
        guard !known.isEmpty else { return nil }
        var scores = logPriors
        for weights in known {
            for index in scores.indices { scores[index] += weights[index] }
        }
        let scaled = scores.map { $0 / max(temperature, 1e-6) }
        let top = scaled.max() ?? 0
        let exponentials = scaled.map { Foundation.exp($0 - top) }
        let sum = exponentials.reduce(0, +)
        guard let best = exponentials.indices.max(by: { exponentials[$0] < exponentials[$1] }) else { return nil }
        return Prediction(category: categories[best], probability: exponentials[best] / sum)
    }

    /// Reads the generated table: one line per feature, the feature name then one weight per category, tab-separated.
    static func table(_ text: String, categories: Int) -> [String: [Double]] {
        var table: [String: [Double]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == categories + 1 else { continue }
            let weights = fields.dropFirst().compactMap { Double($0) }
            if weights.count == categories { table[String(fields[0])] = weights }
        }
        return table
    }
}
