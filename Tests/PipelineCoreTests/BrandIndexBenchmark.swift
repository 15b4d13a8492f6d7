import Foundation
import Testing

@testable import PipelineCore

/// What the brand index costs (issue 39: at most a tenth of a process's peak memory): the resident memory a freshly
/// built index adds, the time to build it, and the time of one OCR-tolerant lookup. Prints measured numbers; runs on
/// request (`scripts/test --filter BrandIndexBenchmark`), alone in its process so no other test's memory is counted.
@Suite struct BrandIndexBenchmark {
    /// The process's resident memory in kB (`VmRSS` of `/proc/self/status`).
    static func residentKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
    }

    @Test func memoryAndTimeOfTheIndex() throws {
        let before = try Self.residentKilobytes()
        let clock = ContinuousClock()
        var index: BrandIndex?
        // The shared index is built on first use, which is here when this suite runs alone.
        let build = clock.measure { index = BrandIndex.shared }
        let built = try #require(index)
        let after = try Self.residentKilobytes()
        // Readings as a page offers them: each brand's own name with its second letter lost (a fuzzy hit), and the
        // same text reversed (mostly a miss).
        let readings = built.brands.prefix(5000).flatMap { brand -> [String] in
            var slipped = Array(brand.name)
            if slipped.count > 2 { slipped.remove(at: 1) }
            return [String(slipped), String(brand.name.reversed())]
        }
        var found = 0
        let lookups = clock.measure {
            for reading in readings { found += built.matches(reading, fuzzy: true).count }
        }
        let perLookup = lookups / readings.count
        print(
            "brand index: \(built.brands.count) brands; resident memory \(before) → \(after) kB (+\(after - before) kB);"
                + " built in \(build); \(readings.count) fuzzy lookups in \(lookups) (\(perLookup) each, \(found) brands found)"
        )
        #expect(found > readings.count / 4, "most names with a letter lost still name a brand")
    }
}
