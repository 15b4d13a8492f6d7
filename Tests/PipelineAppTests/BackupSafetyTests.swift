import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// A failed `pipeline db backup FILE` leaves an earlier backup at FILE as it was: a full disk and a dump cut short
/// each exit 1 with their cause, and leave no partial file beside it; a failed restore leaves its folder empty.
@Suite(.serialized) struct BackupSafetyTests {
    @Test func aDumpCutShortLeavesTheEarlierBackupAndSaysWhy() throws {
        try Self.withProject { project, pipeline in
            let backup = project.appendingPathComponent("nightly.backup")
            let first = try pipeline(["db", "backup", backup.path], nil)
            #expect(first.status == 0, "\(first.standardError)")
            let good = try Data(contentsOf: backup)

            // A file size limit of 16 blocks stops pg_dump's writes partway through the dump.
            let cut = try pipeline(["db", "backup", backup.path], "ulimit -f 16")

            #expect(cut.status == 1, "\(cut.standardError)")
            #expect(cut.standardError.contains("File too large"), "\(cut.standardError)")
            #expect(cut.standardError.contains("unchanged"), "\(cut.standardError)")
            #expect(try Data(contentsOf: backup) == good, "the earlier backup is untouched")
            #expect(try Self.partialFiles(in: project).isEmpty)
        }
    }

    @Test(
        .enabled(if: getuid() == 0, "mounting a small tmpfs needs root (CI runs as root)"))
    func aFullDiskLeavesTheEarlierBackup() throws {
        try Self.withProject { project, pipeline in
            let small = project.appendingPathComponent("small")
            try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
            let mount = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", small.path])
            try #require(mount.status == 0, "mount: \(mount.standardError)")
            defer { _ = try? ChildProcess.run("/bin/umount", [small.path]) }
            let backup = small.appendingPathComponent("nightly.backup")
            let first = try pipeline(["db", "backup", backup.path], nil)
            try #require(first.status == 0, "\(first.standardError)")
            let good = try Data(contentsOf: backup)
            // Leave less room than one more backup needs.
            let room = try FileManager.default.attributesOfFileSystem(forPath: small.path)[.systemFreeSize] as? Int ?? 0
            let filler = max(0, room - good.count / 2)
            try Data(count: filler).write(to: small.appendingPathComponent("filler"))

            let full = try pipeline(["db", "backup", backup.path], nil)

            #expect(full.status == 1, "\(full.standardError)")
            #expect(full.standardError.contains("No space left on device"), "\(full.standardError)")
            #expect(try Data(contentsOf: backup) == good, "the earlier backup is untouched")
            #expect(try Self.partialFiles(in: small).isEmpty)
        }
    }

    @Test func aFailedRestoreExitsOneAndLeavesTheFolderEmptyToRetry() throws {
        try Self.withProject { project, pipeline in
            let backup = project.appendingPathComponent("nightly.backup")
            let made = try pipeline(["db", "backup", backup.path], nil)
            try #require(made.status == 0, "\(made.standardError)")
            let whole = try Data(contentsOf: backup)
            let truncated = project.appendingPathComponent("truncated.backup")
            try whole.prefix(whole.count * 2 / 3).write(to: truncated)
            let elsewhere = project.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            var environment = CommandLineTests.cleanEnvironment
            environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"

            let restore = try runPipeline(["db", "restore", truncated.path], environment: environment, in: elsewhere)
            let status = try runPipeline(["db", "status"], environment: environment, in: elsewhere)

            #expect(restore.status == 1, "\(restore.standardError)")
            #expect(restore.standardError.contains("nothing was restored"), "\(restore.standardError)")
            let left =
                (try? FileManager.default.contentsOfDirectory(
                    atPath: elsewhere.appendingPathComponent(".pipeline").path)) ?? []
            #expect(left.isEmpty, "the cluster's folder is empty again: \(left)")
            #expect(status.standardOutput.contains("not created"), "\(status.standardOutput)")
        }
    }

    /// A project folder with an embedded database holding one receipt, and a way to run `pipeline` in it (through
    /// bash, after a shell prefix such as a `ulimit`).
    private static func withProject(
        _ body: (URL, (_ arguments: [String], _ shellPrefix: String?) throws -> ChildProcess.Result) throws -> Void
    ) throws {
        let project = try TestEnvironment.makeTemporaryFolder("backup-safety")
        defer { try? FileManager.default.removeItem(at: project) }
        let inbox = project.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestEnvironment.receipt("sroie_006.jpg"), to: inbox.appendingPathComponent("sroie_006.jpg"))
        var environment = CommandLineTests.cleanEnvironment
        environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
        func pipeline(_ arguments: [String], _ shellPrefix: String?) throws -> ChildProcess.Result {
            guard let shellPrefix else { return try runPipeline(arguments, environment: environment, in: project) }
            let command = ([TestEnvironment.pipelineBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            return try ChildProcess.run(
                "/bin/bash", ["-c", "\(shellPrefix); exec \(command)"], environment: environment,
                directory: project.path)
        }
        defer { _ = try? pipeline(["db", "stop"], nil) }
        let ingest = try pipeline(["ingest", inbox.path], nil)
        try #require(ingest.status == 0, "\(ingest.standardError)")
        try body(project, pipeline)
    }

    private static func partialFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }
    }
}
