import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// SIGTERM is how systemd stops `pipeline serve`: a clean shutdown, which logs no error.
@Suite struct ServeShutdownTests {
    @Test func sigtermStopsThePageAndTheWorkerSlotsWithoutAnErrorLine() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("serve-stop")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabase.withMigratedDatabase { _, url in
            var environment = CommandLineTests.cleanEnvironment
            environment["DATABASE_URL"] = url
            environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
            environment["PIPELINE_OCR_ENGINE"] = "tesseract"
            let server = try BackgroundProcess(
                TestEnvironment.pipelineBinary, ["serve", "--listen", "127.0.0.1:0", "--workers", "1"],
                environment: environment, folder: folder)
            _ = try await server.waitForOutput(/pipeline serve: (http:\/\/[0-9.:]+)\//)
            _ = try await server.waitForOutput(/(worker) [0-9A-F-]+ started/)

            await server.stop()

            #expect(!server.isRunning)
            let errors = server.output.split(separator: "\n").filter { $0.contains(" error ") }
            #expect(errors.isEmpty, "\(server.output)")
            #expect(server.output.contains("work: 0 done"), "the worker slots stopped too: \(server.output)")
        }
    }
}
