import ArgumentParser
import Foundation
import PipelineCore

/// `pipeline categories list|add|remove|test`: the editable categorization rules.
struct CategoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "List, add, remove and test category rules.",
        discussion: """
            A rule files an expense under a category when its merchant (--merchant) or any text on the receipt \
            (--keyword) contains the pattern as whole words, or an item under an item category (--item). \
            Lower priority numbers run first. Apply changed rules to stored expenses with pipeline recategorize.
            Examples:
              pipeline categories list
              pipeline categories test --merchant "corner bakery" "Food & Dining"
              pipeline categories add --merchant "corner bakery" "Food & Dining"
              pipeline categories remove 17
            """,
        subcommands: [List.self, Add.self, Remove.self, Test.self]
    )

    /// The rule a command line names: exactly one of --merchant, --keyword, --item, and a category.
    struct RuleOptions: ParsableArguments {
        @Option(help: "Match the merchant name.") var merchant: String?
        @Option(help: "Match any text on the receipt.") var keyword: String?
        @Option(help: "Match a line item's name (the category is an item category).") var item: String?
        @Option(help: "Lower runs first.") var priority = 50
        @Argument(help: "The category, e.g. Groceries.") var category: String

        func rule() throws -> CategoryRule {
            let given: [(CategoryRule.Target, String)] = [
                (.merchant, merchant), (.keyword, keyword), (.item, item),
            ].compactMap { target, pattern in pattern.map { (target, $0) } }
            guard given.count == 1, let (target, pattern) = given.first else {
                throw ValidationError("give exactly one of --merchant, --keyword or --item")
            }
            do {
                return try CategoryRule(target: target, pattern: pattern, categoryNamed: category, priority: priority)
                    .validated()
            } catch {
                throw ValidationError(error.message)
            }
        }

        func validate() throws { _ = try rule() }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the rules, lowest priority number first.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let rules = try await context.withReviewStore(label: "categories") { try await $0.categoryRules() }
                for stored in rules {
                    let learned = stored.learnedFrom.map { " (learned from receipt \($0))" } ?? ""
                    print(
                        "\(stored.id)\t\(stored.rule.priority)\t\(stored.rule.target.rawValue)\t"
                            + "\(stored.rule.pattern)\t→ \(stored.rule.categoryName)\(learned)")
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a rule (or change the one with that pattern).")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var rule: RuleOptions

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let rule = try rule.rule()
                let id = try await context.withReviewStore(label: "categories") {
                    try await $0.saveRule(rule, id: nil, learnedFrom: nil, by: context.reviewer)
                }
                print(
                    "rule \(id): \(rule.target.rawValue) \"\(rule.pattern)\" → \(rule.categoryName); "
                        + "apply it to stored expenses with: pipeline recategorize")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove rules by id.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Rule ids (as in categories list).") var ids: [Int64]

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let missing = try await context.withReviewStore(label: "categories") { store in
                    var missing: [Int64] = []
                    for id in ids where try await !store.removeRule(id) { missing.append(id) }
                    return missing
                }
                print("removed \(ids.count - missing.count) rule\(ids.count - missing.count == 1 ? "" : "s")")
                if !missing.isEmpty {
                    printError(
                        "error: no rule has id \(missing.map(String.init).joined(separator: ", ")); "
                            + "list them with: pipeline categories list")
                    throw ExitCode(1)
                }
            }
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which stored receipts a rule would match and re-file, without saving it.")
        @OptionGroup var options: GlobalOptions
        @OptionGroup var rule: RuleOptions

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let rule = try rule.rule()
                let test = try await context.withReviewStore(label: "categories") { try await $0.testRule(rule) }
                print(test.text)
            }
        }
    }
}

extension RuleTest {
    /// The test's outcome as `categories test` prints it.
    var text: String {
        var lines = ["matches \(matched.count) of \(scanned) stored receipts; would re-file \(changes.count)"]
        for sample in matched.prefix(20) {
            let change = changes.first { $0.receiptID == sample.receiptID }
            let note = change.map { ": \(sample.category) → \($0.category)" } ?? ""
            lines.append("  receipt \(sample.receiptID) \(sample.merchant ?? "(no merchant)")\(note)")
        }
        if matched.count > 20 { lines.append("  … and \(matched.count - 20) more") }
        return lines.joined(separator: "\n")
    }
}

/// `pipeline recategorize`: applies the current rules to stored expenses (corrected categories stay).
struct RecategorizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recategorize",
        abstract: "Apply the current category rules to stored expenses (corrected categories stay as set).",
        discussion: """
            Examples:
              pipeline recategorize
              pipeline recategorize --since 7d --dry-run
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: ArgumentHelp("Only expenses committed in this window, e.g. 7d.", valueName: "duration"))
    var since: String?

    @Flag(help: "Only say how many would change.")
    var dryRun = false

    func validate() throws {
        try SinceOption.validate(since, example: "30m or 7d")
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let start = SinceOption.start(since)
            try await context.withReviewStore(label: "recategorize") { store in
                let samples = try await store.categorizationSamples(since: start, limit: Int(Int32.max))
                let changes = Recategorization(rules: try await store.categoryRules().map(\.rule)).changes(for: samples)
                if dryRun {
                    print("would re-file \(changes.count) of \(samples.count) expenses")
                } else {
                    let changed = try await store.applyCategories(changes)
                    print(
                        "re-filed \(changed) of \(samples.count) expenses (item categories updated where they changed)")
                }
            }
        }
    }
}
