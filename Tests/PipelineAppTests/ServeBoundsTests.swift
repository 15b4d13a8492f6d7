import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pipeline serve` bounds what its clients hold: sockets that send nothing (or stop mid-header) are closed within
/// `review.idleTimeout`, and a burst of simultaneous uploads waits its turn for the shared PostgreSQL connections
/// instead of failing.
@Suite(.serialized) struct ServeBoundsTests {
    @Test func idleSocketsAreClosedAndABurstOf150UploadsIsStoredWhole() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("serve-bounds")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = CommandLineTests.cleanEnvironment
            environment["DATABASE_URL"] = url
            environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
            environment["PIPELINE_REVIEW_IDLE_TIMEOUT"] = "2s"
            environment["PIPELINE_REVIEW_DATABASE_CONNECTIONS"] = "4"
            let server = try BackgroundProcess(
                TestEnvironment.pipelineBinary, ["serve", "--listen", "127.0.0.1:0", "--workers", "0"],
                environment: environment, folder: folder)
            let address = try await server.waitForOutput(/pipeline serve: http:\/\/127\.0\.0\.1:([0-9]+)\//)
            let port = try #require(UInt16(address))

            // 10 sockets that send nothing, 10 that send a request line and one header, then nothing.
            let idle = try (0..<20).map { index in
                let socket = try Self.connect(port: port)
                if index >= 10 { Self.send(socket, "GET /upload HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                return socket
            }
            let closed = idle.map { Self.waitsForClose($0, within: .seconds(8)) }
            idle.forEach { _ = close($0) }

            let stored = try await Self.uploadBurst(of: 150, to: "http://127.0.0.1:\(port)", folder: folder)
            let count = try await connection.query("SELECT count(*) AS n FROM receipts").first?.int("n")
            await server.stop()

            #expect(closed.allSatisfy { $0 }, "idle sockets closed: \(closed)")
            #expect(stored.failures.isEmpty, "failed uploads: \(stored.failures.prefix(5))")
            #expect(stored.stored == 150)
            #expect(count == 150)
            #expect(!server.output.contains("cannot connect"), "\(server.output.suffix(2000))")
        }
    }

    /// Sends `count` different JPEGs at once with curl (one connection each) and counts the answers.
    private static func uploadBurst(of count: Int, to base: String, folder: URL) async throws
        -> (stored: Int, failures: [String])
    {
        let page = try ChildProcess.run("/usr/bin/curl", ["--silent", "--show-error", base + "/upload"])
        let token = try #require(page.standardOutput.firstMatch(of: /data-csrf="([0-9a-f]+)"/)?.1)
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        var config = ""
        for index in 0..<count {
            // Each file a different image of the same page.
            let bytes = ReceiptCopies.resaved(jpeg, comment: "burst \(index)")
            let file = folder.appendingPathComponent("burst-\(index).jpg")
            try bytes.write(to: file)
            config += """
                next
                url = "\(base)/upload"
                request = "POST"
                data-binary = "@\(file.path)"
                header = "X-File-Name: burst-\(index).jpg"
                header = "X-CSRF-Token: \(token)"
                header = "Content-Type: image/jpeg"
                output = "/dev/null"
                write-out = "%{http_code}\\n"

                """
        }
        let configFile = folder.appendingPathComponent("burst.curl")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        // Each transfer writes its status alone on a line (parallel bodies would interleave, so they are dropped).
        let result = try ChildProcess.run(
            "/usr/bin/curl",
            [
                "--silent", "--show-error", "--no-progress-meter", "--parallel", "--parallel-immediate",
                "--parallel-max", "\(count)", "--max-time", "120", "--config", configFile.path,
            ])
        let statuses = result.standardOutput.split(separator: "\n").map(String.init)
        let stored = statuses.filter { $0 == "200" }.count
        let failures = statuses.filter { $0 != "200" } + [result.standardError].filter { !$0.isEmpty }
        return (stored, failures)
    }

    private static func connect(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw CocoaError(.fileReadUnknown) }
        return descriptor
    }

    private static func send(_ descriptor: Int32, _ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(descriptor, $0.baseAddress, $0.count - 1, 0) }
    }

    /// Whether the server closes the socket (a read returns end of file) within `limit`.
    private static func waitsForClose(_ descriptor: Int32, within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
        return false
    }
}
