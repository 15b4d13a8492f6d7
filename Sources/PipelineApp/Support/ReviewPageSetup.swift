import ArgumentParser
import Foundation
import Logging
import PipelineCore
import PostgresStore
import ReviewServer

/// What `pipeline review` and `pipeline serve` share: how the page listens, who it lets in, what it prints.
struct ReviewPageSetup {
    let options: ReviewServerOptions
    /// The variable holding the token, named in the start message.
    let tokenVariable: String

    /// The page's options from `--listen` (else `review.listen`) and the token in `review.tokenEnvironmentVariable`.
    /// - Throws: `ValidationError` for a malformed address; `ExitCode.usageError` (after saying why) for a page that
    ///   may not listen there, before anything touches the database.
    init(_ context: CommandContext, listen: String?) throws {
        let address: (host: String, port: Int)
        do {
            address = try ReviewServerOptions.parseListen(listen ?? context.configuration.review.listen)
        } catch {
            throw ValidationError(error.description)
        }
        tokenVariable = context.configuration.review.tokenEnvironmentVariable
        let token = context.environment[tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        options = ReviewServerOptions(
            host: address.host, port: address.port, token: token, reviewer: context.reviewer + " (review page)",
            reconciler: Reconciler(configuration: context.configuration.validation),
            allowedHosts: context.configuration.review.allowedHosts,
            idleTimeout: context.configuration.review.idleTimeout,
            maxConnections: context.configuration.review.maxConnections)
        // Before the database: a page that cannot start must not start (or create) the embedded cluster.
        do {
            try options.validate()
        } catch {
            printError("error: \(error)")
            throw ExitCode.usageError
        }
    }

    /// Builds the server over `store`, or prints why it may not listen there and exits 2.
    func makeServer(store: any ReviewStore, service: ServiceEndpoints? = nil, logger: Logger) throws -> ReviewServer {
        do {
            return try ReviewServer(store: store, options: options, service: service, logger: logger)
        } catch {
            printError("error: \(error.description)")
            throw ExitCode(2)
        }
    }

    /// Serves until SIGINT/SIGTERM, printing `<label>: http://host:port/…` (with the one-time login link when the
    /// page needs a login) once it listens.
    func run(_ server: ReviewServer, label: String, context: CommandContext) async throws {
        let login = await server.makeLoginPath()
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        try await server.run(logger: context.logger) { port in
            printNow("\(label): http://\(host):\(port)\(login ?? "/")")
            if login != nil {
                printNow("(the link logs one browser in, once; scripts send Authorization: Bearer $\(tokenVariable))")
            }
        }
    }
}
