import Foundation
import PostgresStore
import TestSupport

/// Runs the built `pipeline` with arguments and waits for it.
/// - Parameters:
///   - environment: replaces the inherited environment entirely when given.
///   - folder: working folder.
public func runPipeline(
    _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil
) throws -> ChildProcess.Result {
    try ChildProcess.run(
        TestEnvironment.pipelineBinary.path, arguments, environment: environment, directory: folder?.path)
}
