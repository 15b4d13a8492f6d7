import Foundation
import PostgresStore
import TestSupport
import Testing

/// `scripts/package-deb` from the suite's debug build (a release build does not fit the suite's budget; the script's
/// default builds release), installed with `dpkg --root` into a fresh, empty root: no Debian base system there, so
/// dependencies are not installed (`--force-depends`; the host provides Tesseract and libpq) and the maintainer
/// script runs outside a chroot against that root (`--force-script-chrootless`, `DPKG_ROOT`). From that root:
/// `pipeline version`, the embedded demo on two bundled receipts, and `systemd-analyze verify` of the units.
@Suite struct DebPackageTests {
    @Test func packageInstallsIntoAFreshRootAndRunsTheEmbeddedDemoFromThere() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("deb")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("scripts/package-deb").path
        let built = try ChildProcess.run(
            script, ["--binary", TestEnvironment.pipelineBinary.path, "--output", folder.path],
            directory: TestEnvironment.repositoryRoot.path)
        try #require(built.status == 0, "package-deb: \(built.standardError)")
        let package = built.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)

        let root = folder.appendingPathComponent("root")
        for path in ["var/lib/dpkg/info", "var/lib/dpkg/updates"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try Data().write(to: root.appendingPathComponent("var/lib/dpkg/status"))
        let install = try ChildProcess.run(
            "/usr/bin/dpkg",
            ["--root=\(root.path)", "--force-depends", "--force-script-chrootless", "--log=/dev/null", "-i", package])
        try #require(install.status == 0, "dpkg: \(install.standardOutput)\(install.standardError)")
        let passwd = (try? String(contentsOf: root.appendingPathComponent("etc/passwd"), encoding: .utf8)) ?? ""
        #expect(passwd.contains("receipt-pipeline:"), "postinst made the system user")
        #expect(
            FileManager.default.fileExists(atPath: root.appendingPathComponent("var/lib/receipt-pipeline/inbox").path))

        let pipeline = root.appendingPathComponent("usr/bin/pipeline").path
        let version = try ChildProcess.run(pipeline, ["version"])
        #expect(version.status == 0 && version.standardOutput.hasPrefix("pipeline "), "\(version.standardError)")
        try checkSwiftRuntimeComesFromThePackage(root)
        try runEmbeddedDemo(pipeline: pipeline, root: root, folder: folder)
        try verifyUnits(root: root, folder: folder)
    }

    /// Every Swift library the binary loads resolves inside the installed root, not the build machine's toolchain.
    private func checkSwiftRuntimeComesFromThePackage(_ root: URL) throws {
        let lib = root.appendingPathComponent("usr/lib/receipt-pipeline")
        let ldd = try ChildProcess.run(
            "/usr/bin/env",
            [
                "LD_LIBRARY_PATH=\(lib.appendingPathComponent("swift").path)", "ldd",
                lib.appendingPathComponent("pipeline").path,
            ])
        let swiftLines = ldd.standardOutput.split(separator: "\n").filter {
            $0.contains("libswift") || $0.contains("Foundation") || $0.contains("dispatch")
        }
        #expect(!swiftLines.isEmpty)
        for line in swiftLines { #expect(line.contains(root.path), "loaded from outside the package: \(line)") }
    }

    /// `db start`, ingest two of the bundled examples, drain, export, `db stop` — all from the installed root, with
    /// its configuration file and the ONNX Runtime and models it ships.
    private func runEmbeddedDemo(pipeline: String, root: URL, folder: URL) throws {
        var environment = CommandLineTests.cleanEnvironment
        environment["PIPELINE_DATABASE_EMBEDDED_DIRECTORY"] = folder.appendingPathComponent("db").path
        environment["PIPELINE_OCR_PPOCR_DIRECTORY"] = root.appendingPathComponent("usr/lib/receipt-pipeline").path
        environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
        let config = ["--config", root.appendingPathComponent("etc/receipt-pipeline/pipeline.yaml").path]
        let examples = root.appendingPathComponent("usr/share/receipt-pipeline/examples")
        func run(_ arguments: [String]) throws -> ChildProcess.Result {
            try ChildProcess.run(pipeline, arguments, environment: environment, directory: folder.path)
        }
        defer { _ = try? run(["db", "stop"] + config) }
        let ingest = try run(
            ["ingest"] + config + ["sroie_006.jpg", "wr_13_10.jpeg"].map { examples.appendingPathComponent($0).path })
        #expect(ingest.status == 0, "\(ingest.standardOutput)\(ingest.standardError)")
        let work = try run(["work", "--drain"] + config)
        #expect(
            work.status == 0 && work.standardOutput.contains("2 done"), "\(work.standardOutput)\(work.standardError)")
        let export = try run(["export", "--format", "csv"] + config)
        #expect(export.standardOutput.split(separator: "\n").count == 3, "a header and two expenses")
    }

    /// `systemd-analyze verify` on the installed units, with `/usr/bin/pipeline` pointing into the fresh root (it
    /// checks that the program exists). It exits 0 even on a bad setting, so its output must be empty too.
    private func verifyUnits(root: URL, folder: URL) throws {
        let installed = root.appendingPathComponent("usr/lib/systemd/system")
        let units = folder.appendingPathComponent("units")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: installed.path).sorted()
        #expect(
            names == [
                "receipt-pipeline-backup.service", "receipt-pipeline-backup.timer", "receipt-pipeline-ingest.service",
                "receipt-pipeline-ingest.timer", "receipt-pipeline-serve.service", "receipt-pipeline-work@.service",
            ])
        for name in names {
            let text = try String(contentsOf: installed.appendingPathComponent(name), encoding: .utf8)
            try text.replacingOccurrences(of: "/usr/bin/pipeline", with: root.path + "/usr/bin/pipeline")
                .write(to: units.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let verify = try ChildProcess.run(
            "/usr/bin/systemd-analyze",
            ["verify"] + names.map { $0.replacingOccurrences(of: "@.service", with: "@1.service") },
            directory: units.path)
        #expect(verify.status == 0 && verify.standardError.isEmpty, "\(verify.standardOutput)\(verify.standardError)")
    }
}
