import ArgumentParser
import Foundation
import PipelineCore
import PipelineRuntime
import PostgresStore
import ReviewServer

/// `pipeline serve`: one process for a small installation — the review page, an upload page, `/metrics`,
/// `/healthz`, `/readyz`, worker slots and optionally a watched folder.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the review and upload pages, metrics, health checks and workers in one process.",
        discussion: """
            Pages: / (review queue), /upload (phone-friendly upload), /dashboard, /rules. Probes: /healthz (the \
            process is up), /readyz (database reachable, migrations applied, OCR engines loaded; 503 otherwise), \
            /metrics (Prometheus text, the numbers of pipeline stats --prometheus). Off loopback every path but \
            /healthz needs the review token (Authorization: Bearer, or the printed login link).

            Uploads go through the same checks, limits and dedupe as pipeline ingest. SIGINT/SIGTERM stop the \
            page, and the workers as pipeline work does (in-flight receipts finish within workers.shutdownGrace).

            Examples:
              pipeline serve                                   page and 2 worker slots on 127.0.0.1:8080
              pipeline serve --listen 0.0.0.0:8080 --workers 2 --watch /srv/inbox
              pipeline serve --workers 0                       the pages only (workers run elsewhere)
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(
        help: ArgumentHelp("Address to listen on (default: review.listen, 127.0.0.1:8080).", valueName: "host:port"))
    var listen: String?

    @Option(help: "Worker slots in this process; 0 serves the pages only (default: workers.concurrency).")
    var workers: Int?

    @Option(help: ArgumentHelp("Also ingest this folder as files settle (never modifies it).", valueName: "dir"))
    var watch: String?

    func validate() throws {
        if let workers, !(0...64).contains(workers) {
            throw ValidationError("--workers must be between 0 and 64 (got \(workers)).")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            if let watch {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: watch, isDirectory: &isFolder), isFolder.boolValue else {
                    throw ValidationError("--watch \(watch): no such folder; create it or name another")
                }
            }
            let slots = workers ?? context.configuration.workers.concurrency
            var settings = context.configuration
            if slots > 0 { settings.workers.concurrency = slots }
            let configuration = settings
            let setup = try ReviewPageSetup(context, listen: listen)
            let vision = slots > 0 ? try WorkerAssembly.makeVision(context, configuration) : nil
            try await context.withReviewPool(label: "serve") { session in
                let engines = EngineLoadState()
                // Reads the pages of PDFs uploaded or watched, to split them; its engine stops with the service.
                let pages = IngestPageReader(configuration: context.configuration)
                let probes = ServiceProbes(context: context, session: session, slots: slots, engines: engines)
                let service = ServiceEndpoints(
                    uploads: PostgresUploadIntake(
                        configuration: context.configuration, pages: pages, store: session.intakeStore),
                    metrics: { try await probes.metrics() }, readiness: { await probes.readiness() },
                    maxUploadBytes: configuration.ingest.maxBytes)
                let server = try setup.makeServer(store: session.reviewStore, service: service, logger: context.logger)
                let database = session.database
                let watching = watch.map { folder in
                    Task { await FolderWatch(context: context, database: database, folder: folder, pages: pages).run() }
                }
                defer { watching?.cancel() }
                let stopper = WorkerStopper()
                // SIGINT/SIGTERM stop the page and the worker slots together: the page shuts down gracefully on
                // them by itself (cancelling it instead makes the HTTP server log errors), this handler stops the slots.
                let serving = Task { try await setup.run(server, label: "pipeline serve", context: context) }
                let signals = await ShutdownSignals { _ in stopper.requestStop() }
                defer { signals.cancel() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        defer { stopper.requestStop() }
                        do {
                            try await withTaskCancellationHandler {
                                try await serving.value
                            } onCancel: {
                                serving.cancel()
                            }
                        } catch  where serving.isCancelled {
                            // Stopped because the worker slots failed: theirs is the error reported.
                        }
                    }
                    if slots > 0 {
                        group.addTask {
                            let outcome = try await WorkerAssembly(
                                context: context, configuration: configuration, vision: vision, stopper: stopper,
                                handlesSignals: false
                            ).run { await engines.markLoaded() }
                            printNow(outcome.summaryLine)
                        }
                    }
                    // If one part fails (the OCR engines cannot load), stop the other.
                    do {
                        while try await group.next() != nil {}
                    } catch {
                        group.cancelAll()
                        stopper.requestStop()
                        await pages.shutdown()
                        throw error
                    }
                }
                await pages.shutdown()
            }
        }
    }
}
