import PipelineApp
import PipelineCore
import Testing

@Suite struct DurationParsingTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)), ("30s", .seconds(30)), ("5m", .seconds(300)), ("2h", .seconds(7200)),
        ("7d", .seconds(604_800)), ("1.5s", .milliseconds(1500)), ("10", .seconds(10)),
    ])
    func parsesDurations(text: String, expected: Duration) {
        #expect(parseDuration(text) == expected)
    }

    @Test(arguments: [
        (Duration.milliseconds(500), "500ms"), (.seconds(30), "30s"), (.seconds(300), "5m"), (.seconds(7200), "2h"),
        (.seconds(604_800), "7d"), (.milliseconds(1500), "1500ms"), (.zero, "0s"),
    ])
    func formatsDurationsAsTheyAreParsed(duration: Duration, expected: String) {
        #expect(formatDuration(duration) == expected)
        #expect(parseDuration(formatDuration(duration)) == duration)
    }

    @Test(arguments: ["thirty", "-1s", "", "5 parsecs", "30\u{200B}s", "30\u{00A0}s", "0x10s", "1e3s", "+5s", ".5s"])
    func rejectsNonDurations(text: String) {
        #expect(parseDuration(text) == nil)
    }

    @Test func parsesByteSizes() {
        #expect(parseByteSize("25MB") == 25 * 1024 * 1024)
        #expect(parseByteSize("500kb") == 500 * 1024)
        #expect(parseByteSize("1234") == 1234)
        #expect(parseByteSize("lots") == nil)
    }

    @Test func environmentVariableNamesFollowKeys() {
        #expect(ConfigurationKey.named("queue.lease")?.environmentVariable == "PIPELINE_QUEUE_LEASE")
        #expect(
            ConfigurationKey.named("workers.shutdownGrace")?.environmentVariable == "PIPELINE_WORKERS_SHUTDOWN_GRACE")
        #expect(ConfigurationKey.named("database.url")?.environmentVariable == "DATABASE_URL")
        #expect(ConfigurationKey.named("llm.baseURL")?.environmentVariable == "PIPELINE_LLM_BASE_URL")
        #expect(
            ConfigurationKey.named("targets.benchLatencyP95")?.environmentVariable
                == "PIPELINE_TARGETS_BENCH_LATENCY_P95")
    }
}
