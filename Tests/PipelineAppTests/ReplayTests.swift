import ArgumentParser
import DatabaseTestSupport
import Foundation
import PipelineApp
import PipelineCore
import PostgresStore
import ReceiptBench
import TestSupport
import Testing

/// `pipeline-bench replay` over the ten shipped receipts on their stored pages: ingest, the worker, and a person's
/// corrections from the labels, in a real database.
@Suite struct ReplayTests {
    /// Reviewed as each receipt arrives, or after the whole batch was read (`--batch`): the same end.
    @Test(arguments: [false, true])
    func everyReceiptInReviewEndsAcceptedAsLabeledAndTheFiguresCountTouchesAndSilentErrors(afterBatch: Bool)
        async throws
    {
        let folder = TestEnvironment.receipt("sroie_006.jpg").deletingLastPathComponent()
        let fixtures = try BenchFixture.load(from: folder)
        let pages = try TestEnvironment.makeTemporaryFolder("replay-pages")
        defer { try? FileManager.default.removeItem(at: pages) }
        let cache = try Self.storedPages(of: fixtures, from: folder, in: pages)

        try await TestDatabase.withMigratedDatabase { connection, url in
            let context = try Self.context(url)
            let store = PostgresReviewStore(database: connection)
            let intake = try await ReplayIntake.make(
                context: context, store: PostgresIntakeStore(database: connection), ocrCache: cache, fixtures: fixtures)
            let reviewing: ReplayRunner<PostgresReviewStore>.Reviewing =
                afterBatch ? .afterBatch(drain: intake.drain) : .eachReceipt
            let steps = try await ReplayRunner(store: store, reviewing: reviewing, process: intake.process).run(
                fixtures)
            var after: [ReceiptDetail] = []
            for step in steps { after.append(try #require(try await store.receipt(step.receiptID))) }
            let again = await #expect(throws: BenchError.self) {
                try await ReplayIntake.make(
                    context: context, store: PostgresIntakeStore(database: connection), ocrCache: cache, fixtures: [])
            }

            #expect(steps.map(\.name) == fixtures.map(\.name))
            #expect(steps.contains { $0.touched }, "the shipped receipts include ones the rules cannot vouch for")
            for (step, (fixture, detail)) in zip(steps, zip(fixtures, after)) {
                // A person accepted what landed in review, with the labeled key fields the label's.
                #expect(detail.status == .accepted && detail.reasons.isEmpty, "\(step.name)")
                // Why it waited as the commit decided (none for one the worker accepted), and how sure it was.
                #expect(step.touched == !step.reasons.isEmpty, "\(step.name)")
                #expect(step.outcome != nil && step.trust[KeyField.merchant.rawValue] != nil, "\(step.name)")
                if step.touched {
                    #expect(ReplayRunner<PostgresReviewStore>.wrongKeyFields(detail, label: fixture.label).isEmpty)
                    let keyFields = detail.corrections.map(\.field.rawValue).filter { KeyField(rawValue: $0) != nil }
                    #expect(Set(keyFields) == Set(step.corrected), "\(step.name)")
                } else {
                    #expect(step.corrected.isEmpty && detail.corrections.isEmpty)
                }
            }
            let all = try #require(ReplayFigures.table(steps).last)
            #expect(all.group == "all" && all.receipts == 10)
            #expect(all.touchesPer100 == Double(10 * steps.filter(\.touched).count))
            #expect(all.silentErrorsPer100 == Double(10 * steps.filter { !$0.wrongWhenAccepted.isEmpty }.count))
            #expect(again?.description.contains("already holds 10 receipt(s)") == true)
        }
    }

    /// A receipt whose job went dead is a touch, not the end of the replay: the receipts after it are worked and
    /// reviewed as usual, and the figures count it; a merchant counts as seen once an earlier receipt of it was
    /// accepted (the dead one's does not).
    @Test func aDeadJobCountsAsATouchAndTheReplayGoesOn() async throws {
        let folder = TestEnvironment.receipt("sroie_006.jpg").deletingLastPathComponent()
        // sroie_006 (SOON HUAT), then sroie_030, _035 and _051, all three UNIHAKKA.
        let fixtures = Array(try BenchFixture.load(from: folder).prefix(4))
        let pages = try TestEnvironment.makeTemporaryFolder("replay-dead-pages")
        defer { try? FileManager.default.removeItem(at: pages) }
        let cache = try Self.storedPages(of: fixtures, from: folder, in: pages)
        try await TestDatabase.withMigratedDatabase { connection, url in
            let context = try Self.context(url)
            let intake = try await ReplayIntake.make(
                context: context, store: PostgresIntakeStore(database: connection), ocrCache: cache, fixtures: fixtures)
            let damaged = fixtures[1].name
            // The second receipt's job is reported dead, as a damaged image's would be.
            let steps = try await ReplayRunner(store: PostgresReviewStore(database: connection)) { fixture in
                let processed = try await intake.process(fixture)
                guard fixture.name == damaged else { return processed }
                return ReplayProcessed(receiptID: processed.receiptID, deadReason: "\(damaged): its job went dead")
            }.run(fixtures)

            #expect(steps.map(\.name) == ["sroie_006.jpg", "sroie_030.jpg", "sroie_035.jpg", "sroie_051.jpg"])
            #expect(steps[1].dead && steps[1].touched && steps[1].findings == ["\(damaged): its job went dead"])
            #expect(!steps[2].dead && !steps[3].dead)
            #expect(steps.map(\.merchantSeenBefore) == [false, false, false, true])
            let all = try #require(ReplayFigures.table(steps).last)
            #expect(all.dead == 1 && all.seenMerchant.receipts == 1 && all.firstSeenMerchant.receipts == 3)
        }
    }

    /// Unattended (`--unattended`), nobody reviews: what the worker held stays held with no correction, what it
    /// accepted stays accepted, and a merchant counts as seen only once the machine accepted an earlier receipt of it:
    /// a second scan of SOON HUAT's receipt, which the rules hold for its name, follows the first unseen.
    @Test func unattendedNothingHeldIsSettledAndOnlyTheMachinesAcceptancesConfirmAMerchant() async throws {
        let shipped = TestEnvironment.receipt("sroie_006.jpg").deletingLastPathComponent()
        let folder = try TestEnvironment.makeTemporaryFolder("replay-unattended")
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in try FileManager.default.contentsOfDirectory(atPath: shipped.path) {
            try FileManager.default.copyItem(
                at: shipped.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        // The second scan: other bytes (one after the JPEG's end), the same label, read as the same page.
        let again = try Data(contentsOf: shipped.appendingPathComponent("sroie_006.jpg")) + [0]
        try again.write(to: folder.appendingPathComponent("sroie_006_again.jpg"))
        try FileManager.default.copyItem(
            at: shipped.appendingPathComponent("sroie_006.json"),
            to: folder.appendingPathComponent("sroie_006_again.json"))
        let fixtures = try BenchFixture.load(from: folder).sorted { $0.name < $1.name }
        let pages = try TestEnvironment.makeTemporaryFolder("replay-unattended-pages")
        defer { try? FileManager.default.removeItem(at: pages) }
        let cache = OCRPageCache(directory: pages, fixtureFolder: folder)
        for fixture in fixtures {
            let name = fixture.image.deletingPathExtension().lastPathComponent.replacingOccurrences(
                of: "_again", with: "")
            try cache.store(try LLMCorpus.page(name), readBy: PipelineConfiguration().ocr.engine, for: fixture.image)
        }

        try await TestDatabase.withMigratedDatabase { connection, url in
            let store = PostgresReviewStore(database: connection)
            let intake = try await ReplayIntake.make(
                context: try Self.context(url), store: PostgresIntakeStore(database: connection), ocrCache: cache,
                fixtures: fixtures)
            let steps = try await ReplayRunner(store: store, reviewing: .nobody, process: intake.process).run(fixtures)

            #expect(steps.map(\.name).prefix(2) == ["sroie_006.jpg", "sroie_006_again.jpg"])
            #expect(steps[0].touched && steps[0].reasons == [ReviewReason.merchantNotSure.rawValue])
            #expect(!steps[1].merchantSeenBefore, "held, the first scan confirmed nobody")
            #expect(steps.contains { !$0.touched })
            for step in steps {
                let detail = try #require(try await store.receipt(step.receiptID))
                #expect(detail.status == (step.touched ? .needsReview : .accepted), "\(step.name)")
                #expect(step.corrected.isEmpty && detail.corrections.isEmpty, "\(step.name)")
            }
        }
    }

    /// A merchant is seen before when an earlier label names it, either way round, not when an earlier label that is
    /// one everyday word (`RESTAURANT`, `FISH`) lies within its label, as the fuzzy score lets a reading hold a label.
    @Test func aMerchantIsSeenBeforeOnlyWhenAnEarlierLabelNamesIt() {
        #expect(ReceiptScorer.matches(.merchantFuzzy, expected: "RESTAURANT", got: "VegetarianRestaurant Vihar"))
        #expect(!ReceiptScorer.sameMerchantLabels("RESTAURANT", "VegetarianRestaurant Vihar"))
        #expect(!ReceiptScorer.sameMerchantLabels("FISH", "THESEA Fish&Chips"))
        #expect(!ReceiptScorer.sameMerchantLabels("Grill", "OldEbbittGrill"))
        for (earlier, later) in [
            ("PaneraBread", "PaneraBread Cafe0994"), ("PaneraBread Cafe0994", "Panera Bread"),
            ("Store#0208 PandaExpress", "Panda Express"), ("Panda Express", "Store#0208 PandaExpress"),
            ("99 SPEED MART S/B", "99 SPEED MART S/B"),
        ] {
            #expect(ReceiptScorer.sameMerchantLabels(earlier, later), "\(earlier) / \(later)")
        }
    }

    /// The same receipt twice more — once as another file (a second scan), once as the same file — is a repeat: the
    /// commit flags the second scan as a possible duplicate and ingest skips the same file, and the figures count
    /// seen merchants' new receipts without them.
    @Test func aRepeatOfAnEarlierReceiptIsCaughtAndCountedApartFromTheMerchantsNewReceipts() async throws {
        let shipped = TestEnvironment.receipt("sroie_030.jpg")
        let folder = try TestEnvironment.makeTemporaryFolder("replay-repeats")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Data(contentsOf: shipped)
        let label = try Data(contentsOf: shipped.deletingPathExtension().appendingPathExtension("json"))
        // a: the receipt; b: a second scan (other bytes: a byte after the JPEG's end); c: a's file again.
        for (name, bytes) in [("a", image), ("b", image + [0]), ("c", image)] {
            try bytes.write(to: folder.appendingPathComponent("\(name).jpg"))
            try label.write(to: folder.appendingPathComponent("\(name).json"))
        }
        let fixtures = try BenchFixture.load(from: folder).sorted { $0.name < $1.name }
        let pages = try TestEnvironment.makeTemporaryFolder("replay-repeats-pages")
        defer { try? FileManager.default.removeItem(at: pages) }
        let cache = OCRPageCache(directory: pages, fixtureFolder: folder)
        for fixture in fixtures {
            try cache.store(
                try LLMCorpus.page("sroie_030"), readBy: PipelineConfiguration().ocr.engine, for: fixture.image)
        }
        try await TestDatabase.withMigratedDatabase { connection, url in
            let intake = try await ReplayIntake.make(
                context: try Self.context(url), store: PostgresIntakeStore(database: connection), ocrCache: cache,
                fixtures: fixtures)
            let steps = try await ReplayRunner(
                store: PostgresReviewStore(database: connection), process: intake.process
            )
            .run(fixtures)

            #expect(steps.map(\.name) == ["a.jpg", "b.jpg", "c.jpg"])
            #expect(steps.map(\.repeatsEarlierReceipt) == [false, true, true])
            #expect(steps[1].touched && steps[1].reasons.contains(ReviewReason.possibleDuplicate.rawValue))
            #expect(!steps[2].touched && steps[2].receiptID == steps[0].receiptID)
            #expect(steps.map(\.caughtAsRepeat) == [false, true, true])
            let all = try #require(ReplayFigures.table(steps).last)
            #expect(all.seenMerchant.receipts == 2 && all.seenMerchantNewReceipt.receipts == 0)
            #expect(all.repeats == 2 && all.repeatsCaught == 2)
        }
    }

    /// The shipped receipts' recorded pages, stored as `pipeline bench --ocr-cache` stores them, in `pages`, as
    /// pages of the engine the replay reads with (`ocr.engine`).
    static func storedPages(of fixtures: [BenchFixture], from folder: URL, in pages: URL) throws -> OCRPageCache {
        let cache = OCRPageCache(directory: pages, fixtureFolder: folder)
        for fixture in fixtures {
            try cache.store(
                try LLMCorpus.page(fixture.image.deletingPathExtension().lastPathComponent),
                readBy: PipelineConfiguration().ocr.engine, for: fixture.image)
        }
        return cache
    }

    /// A command context on the database at `url`, logging warnings only.
    static func context(_ url: String) throws -> CommandContext {
        try CommandContext(
            options: try GlobalOptions.parse([]),
            environment: ["DATABASE_URL": url, "PIPELINE_LOGGING_LEVEL": "warning"])
    }
}
