import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion with `posix_spawn` and `waitpid`, capturing its output.
///
/// Foundation's `Process.waitUntilExit` was seen to hang on Linux when called from async code (the child
/// stayed a zombie, never reaped), so server programs are run through this instead. Blocks the calling thread.
public enum ChildProcess {
    /// What the program printed and how it ended.
    public struct Result: Sendable {
        /// The exit code, or 128 + the signal number when a signal ended it.
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// A program that could not be started.
    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` with `arguments` and waits for it to exit.
    /// - Parameters:
    ///   - environment: the child's whole environment; nil inherits this process's.
    ///   - directory: the child's working folder; nil inherits this process's.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil
    ) throws -> Result {
        var outputPipe: [Int32] = [0, 0]
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else {
            throw LaunchError(description: "cannot run \(executable): no pipe (errno \(errno))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        for descriptor in outputPipe + errorPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
        // Glibc's posix_spawn_file_actions_addchdir_np is not imported into Swift: `env -C` changes folder instead.
        let command = directory.map { ["/usr/bin/env", "-C", $0, executable] + arguments } ?? [executable] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let environmentStrings = (environment ?? ProcessInfo.processInfo.environment).map {
            strdup("\($0.key)=\($0.value)")
        }
        let envp = environmentStrings + [nil]
        defer {
            argv.forEach { free($0) }
            environmentStrings.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        close(outputPipe[1])
        close(errorPipe[1])
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw LaunchError(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        let (output, error) = readBoth(outputPipe[0], errorPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return Result(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self))
    }

    /// Reads two pipes to their end at once, so a child filling one never blocks on the other.
    private static func readBoth(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var buffers: [[UInt8]] = [[], []]
        var descriptors = [
            pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0),
        ]
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var open = 2
        while open > 0 {
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = read(descriptors[index].fd, &chunk, chunk.count)
                if count > 0 {
                    buffers[index].append(contentsOf: chunk[0..<count])
                } else if count == 0 || errno != EINTR {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    open -= 1
                }
            }
        }
        return (buffers[0], buffers[1])
    }
}
