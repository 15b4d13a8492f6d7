import Foundation
import PostgresStore
import TestSupport
import Testing

/// `scripts/fault-test` in the suite: workers in network namespaces, a partition past the lease, kill -9 and a
/// PostgreSQL restart, then exactly once. It needs root and `ip netns` (CI runs as root); elsewhere it is skipped.
@Suite struct FaultTests {
    /// Whether this machine lets us create a network namespace (root, iproute2, the capability in a container).
    static let canCreateNamespaces: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return false }
        let name = "pfprobe\(getpid())"
        guard (try? ChildProcess.run("/usr/sbin/ip", ["netns", "add", name]))?.status == 0 else { return false }
        _ = try? ChildProcess.run("/usr/sbin/ip", ["netns", "delete", name])
        return true
    }()

    @Test(.enabled(if: canCreateNamespaces, "skipped: needs root and ip netns to build the partitioned network"))
    func partitionKillAndRestartLeaveEveryReceiptDoneExactlyOnce() throws {
        let script = TestEnvironment.repositoryRoot.appendingPathComponent("scripts/fault-test")
        let result = try ChildProcess.run(script.path, [TestEnvironment.pipelineBinary.path])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("fault-test: passed"), "\(result.standardOutput)")
    }
}
