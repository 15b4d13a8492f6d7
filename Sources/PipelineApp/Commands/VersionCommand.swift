import ArgumentParser
import Foundation

/// `pipeline version`: the program's version and the runtime settings that matter for speed.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print the version and runtime settings.",
        discussion: "Example: pipeline version")

    /// The release version of this build.
    static let version = "0.1.0"

    func run() {
        print("pipeline \(Self.version)")
        for name in ["OMP_THREAD_LIMIT", "GLIBC_TUNABLES"] {
            print("\(name)=\(ProcessInfo.processInfo.environment[name] ?? "unset")")
        }
    }
}
