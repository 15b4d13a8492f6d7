import Foundation
import PostgresStore
import TestSupport
import Testing

/// `scripts/package-deb` from the suite's debug build (a release build does not fit the suite's budget; the script's
/// default builds release), installed as a self-hoster installs it: `debootstrap --variant=minbase bookworm` from
/// Debian's mirror, then `apt-get install ./….deb` inside that root (chroot), with nothing but the package's `Depends`
/// (`--no-install-recommends`). Inside: `pipeline version`, `pipeline db start`, a JPEG, a PDF, a HEIC and an HTML
/// e-mail ingested, drained and exported as the `receipt-pipeline` user, as the units run it; then
/// `systemd-analyze verify` of the units. Skipped, saying so, only when the mirror cannot be reached.
@Suite struct DebPackageTests {
    static let mirror = "http://deb.debian.org/debian"

    /// Whether debootstrap can reach Debian's mirror: a HEAD request for bookworm's Release file.
    static var mirrorIsReachable: Bool {
        let probe = try? ChildProcess.run(
            "/usr/bin/curl", ["-sfI", "--max-time", "10", "\(mirror)/dists/bookworm/Release"])
        return probe?.status == 0
    }

    @Test(
        .enabled(if: mirrorIsReachable, "debootstrap cannot reach http://deb.debian.org/debian: package test skipped"))
    func packageInstallsWithAptIntoAMinimalBookwormAndReadsEveryKindOfInput() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("deb")
        let root = folder.appendingPathComponent("root")
        defer { Self.remove(folder, root: root) }
        var timings: [String] = []
        func timed<Value>(_ name: String, _ body: () throws -> Value) rethrows -> Value {
            let started = Date()
            defer { timings.append("\(name) \(Int(Date().timeIntervalSince(started))) s") }
            return try body()
        }
        defer { print("DebPackageTests: \(timings.joined(separator: ", "))") }

        let script = TestEnvironment.repositoryRoot.appendingPathComponent("scripts/package-deb").path
        let built = try timed("package-deb") {
            try ChildProcess.run(
                script, ["--binary", TestEnvironment.pipelineBinary.path, "--output", folder.path],
                directory: TestEnvironment.repositoryRoot.path)
        }
        try #require(built.status == 0, "package-deb: \(built.standardError)")
        let package = URL(fileURLWithPath: built.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let control = try ChildProcess.run("/usr/bin/dpkg-deb", ["--field", package.path]).standardOutput
        #expect(
            control.contains("libheif1") && control.contains("libpq5") && control.contains("libssl3"),
            "Depends from NEEDED: \(control)")
        #expect(!control.contains("Recommends"), "\(control)")

        let bootstrap = try timed("debootstrap") {
            try ChildProcess.run("/usr/sbin/debootstrap", ["--variant=minbase", "bookworm", root.path, Self.mirror])
        }
        try #require(bootstrap.status == 0, "debootstrap: \(bootstrap.standardOutput.suffix(2000))")
        try Self.prepare(root)
        let minimal = try Self.packages(in: root)
        try FileManager.default.copyItem(
            at: package, to: root.appendingPathComponent("tmp/\(package.lastPathComponent)"))
        let install = try timed("apt-get install") {
            try Self.chroot(
                root,
                [
                    "sh", "-c",
                    "apt-get update -q && apt-get install -y -q --no-install-recommends "
                        + "-o Dpkg::Options::=--force-unsafe-io ./\(package.lastPathComponent)",
                ], directory: "/tmp")
        }
        try #require(install.status == 0, "apt-get: \(install.standardOutput.suffix(3000))\(install.standardError)")
        try expectTheImageInstalls(depends: control, beyond: minimal, root: root)
        let passwd = (try? String(contentsOf: root.appendingPathComponent("etc/passwd"), encoding: .utf8)) ?? ""
        #expect(passwd.contains("receipt-pipeline:"), "postinst made the system user")

        let version = try Self.chroot(root, ["pipeline", "version"])
        #expect(version.status == 0 && version.standardOutput.hasPrefix("pipeline "), "\(version.standardError)")
        try timed("pipeline in the root") { try runEveryInputKind(root: root) }
        try verifyUnits(root: root, folder: folder)
    }

    /// The container image (`Dockerfile`, its runtime stage on `debian:bookworm-slim`) has every library package the
    /// binary needs: each library package (`lib…`) of the package's `Depends`, derived from the binary's NEEDED
    /// libraries, is in a minimal bookworm (`minimal`, the packages of a fresh `--variant=minbase` bootstrap) or among
    /// the stage's `apt-get install` packages and what they depend on (`apt-cache depends --recurse` in `root`). The
    /// server, systemd and the Tesseract model are not libraries: the image runs against a PostgreSQL of its own. A
    /// library added to the binary and not to the image would stop `pipeline` from starting in the container.
    private func expectTheImageInstalls(depends control: String, beyond minimal: Set<String>, root: URL) throws {
        let dependsLine = try #require(control.split(separator: "\n").first { $0.hasPrefix("Depends:") })
        let libraries = dependsLine.dropFirst("Depends:".count).split(separator: ",").compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
        .filter { $0.hasPrefix("lib") }
        let dockerfile = try String(
            contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let runtimeStage = try #require(dockerfile.components(separatedBy: "\nFROM ").last)
        let install = try #require(runtimeStage.firstMatch(of: /apt-get install ([^&]*)&&/)?.1)
        let named = install.split(whereSeparator: { $0.isWhitespace || $0 == "\\" }).map(String.init)
            .filter { !$0.hasPrefix("-") }
        let tree = try Self.chroot(
            root,
            [
                "apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
                "--no-breaks",
                "--no-replaces", "--no-enhances",
            ] + named)
        try #require(tree.status == 0, "apt-cache depends: \(tree.standardError)")
        let image = minimal.union(
            tree.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        let missing = libraries.filter { !image.contains($0) }
        let stage = "the stage installs \(named)"
        #expect(
            missing.isEmpty,
            "the Dockerfile's runtime stage does not install \(missing), which the binary needs (\(stage))")
    }

    /// The packages installed in `root`.
    private static func packages(in root: URL) throws -> Set<String> {
        let listed = try chroot(root, ["dpkg-query", "--show", "--showformat", "${Package}\n"])
        try #require(listed.status == 0, "dpkg-query: \(listed.standardError)")
        return Set(listed.standardOutput.split(separator: "\n").map(String.init))
    }

    /// What a chroot needs besides debootstrap's files: DNS, no services started by maintainer scripts
    /// (policy-rc.d), `/proc` and a shared-memory folder for PostgreSQL.
    private static func prepare(_ root: URL) throws {
        let policy = root.appendingPathComponent("usr/sbin/policy-rc.d")
        try Data("#!/bin/sh\nexit 101\n".utf8).write(to: policy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: policy.path)
        try? FileManager.default.removeItem(at: root.appendingPathComponent("etc/resolv.conf"))
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: "/etc/resolv.conf"), to: root.appendingPathComponent("etc/resolv.conf"))
        for (type, path) in [("proc", "proc"), ("tmpfs", "dev/shm")] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(path), withIntermediateDirectories: true)
            let mount = try ChildProcess.run(
                "/usr/bin/mount", ["-t", type, type, root.appendingPathComponent(path).path])
            try #require(mount.status == 0, "mount \(path): \(mount.standardError)")
        }
    }

    /// Unmounts what `prepare` mounted and removes the folder, unless something is still mounted inside it.
    private static func remove(_ folder: URL, root: URL) {
        for path in ["dev/shm", "proc"] {
            _ = try? ChildProcess.run("/usr/bin/umount", [root.appendingPathComponent(path).path])
        }
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        let inside = mounts.split(separator: "\n").filter { $0.split(separator: " ")[1].hasPrefix(folder.path) }
        guard inside.isEmpty else {
            Issue.record("still mounted, \(folder.path) left in place: \(inside)")
            return
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `command` inside `root` with a clean environment, as root or, given `user`, as that user.
    private static func chroot(
        _ root: URL, _ command: [String], user: String? = nil, directory: String = "/",
        environment: [String] = []
    ) throws -> ChildProcess.Result {
        let runAs = user.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []
        return try ChildProcess.run(
            "/usr/sbin/chroot",
            [
                root.path, "/usr/bin/env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8",
                "DEBIAN_FRONTEND=noninteractive",
            ] + runAs
                + ["/usr/bin/env", "-C", directory] + environment + command)
    }

    /// As the units run it (user receipt-pipeline in /var/lib/receipt-pipeline, the packaged configuration):
    /// `db start`, ingest a JPEG, a born-digital PDF, a HEIC photo and an HTML-only e-mail (read through PDFium),
    /// drain, export; each becomes an expense with its total.
    private func runEveryInputKind(root: URL) throws {
        let inbox = root.appendingPathComponent("var/lib/receipt-pipeline/inbox/first-run")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestEnvironment.receipt("sroie_006.jpg"), to: inbox.appendingPathComponent("photo.jpeg"))
        try TestFiles.heic("sroie_006.jpg").write(to: inbox.appendingPathComponent("IMG_0001.HEIC"))
        try TestPDF.document([
            TestPDF.receiptPage(
                merchant: "CORNER BAKERY",
                lines: [("12/03/2026", ""), ("Bread", "3.20"), ("Coffee", "2.50"), ("TOTAL", "5.70")])
        ]).write(to: inbox.appendingPathComponent("bakery.pdf"))
        try Data(Self.htmlEmail.utf8).write(to: inbox.appendingPathComponent("ride.eml"))
        let expected = [
            // The photo and its HEIC copy read the same (the second is flagged a possible duplicate, still exported).
            "photo.jpeg": "327.00", "IMG_0001.HEIC": "327.00", "bakery.pdf": "5.70", "ride.eml#body": "14.00",
        ]

        func pipeline(_ arguments: [String]) throws -> ChildProcess.Result {
            try Self.chroot(
                root, ["pipeline"] + arguments + ["--config", "/etc/receipt-pipeline/pipeline.yaml"],
                user: "receipt-pipeline", directory: "/var/lib/receipt-pipeline",
                environment: ["PIPELINE_INGEST_SETTLE_TIME=0s"])
        }
        let start = try pipeline(["db", "start"])
        try #require(start.status == 0, "db start: \(start.standardOutput)\(start.standardError)")
        defer { _ = try? pipeline(["db", "stop"]) }
        let ingest = try pipeline(["ingest", "/var/lib/receipt-pipeline/inbox/first-run"])
        #expect(ingest.standardOutput.contains("stored 4 new"), "\(ingest.standardOutput)\(ingest.standardError)")
        let work = try pipeline(["work", "--drain"])
        #expect(work.standardOutput.contains("4 done"), "\(work.standardOutput)\(work.standardError)")
        let export = try pipeline(["export", "--format", "jsonl"])
        var found: [String: String] = [:]
        for line in export.standardOutput.split(separator: "\n") {
            let expense = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let file = (expense?["file"] as? String)?.split(separator: "/").last.map(String.init) ?? "?"
            found[file] = expense?["total"] as? String ?? "-"
        }
        #expect(found == expected, "\(export.standardOutput)")
    }

    private static let htmlEmail = """
        From: "Ride Co" <receipts@ride.example>\r
        To: someone@example.com\r
        Subject: Trip receipt\r
        Date: Tue, 24 Nov 2026 18:03:11 +0100\r
        Message-ID: <first-run@ride.example>\r
        MIME-Version: 1.0\r
        Content-Type: text/html; charset=utf-8\r
        \r
        <html><body><h1>Thanks for riding</h1><table><tr><td>Trip fare</td><td>12.40</td></tr>\r
        <tr><td>Booking fee</td><td>1.60</td></tr><tr><td><b>Total</b></td><td><b>14.00 EUR</b></td></tr></table>\r
        <p>24 Nov 2026</p></body></html>\r

        """

    /// `systemd-analyze verify` on the installed units, with `/usr/bin/pipeline` pointing into the fresh root (it
    /// checks that the program exists). It exits 0 even on a bad setting, so its output must be empty too.
    private func verifyUnits(root: URL, folder: URL) throws {
        let installed = root.appendingPathComponent("usr/lib/systemd/system")
        let units = folder.appendingPathComponent("units")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        // The package's own units: the base system installs its own there too.
        let names = try FileManager.default.contentsOfDirectory(atPath: installed.path)
            .filter { $0.hasPrefix("receipt-pipeline-") }.sorted()
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
