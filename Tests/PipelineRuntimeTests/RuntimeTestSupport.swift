import PipelineCore
import PipelineRuntime

extension WorkerRuntime {
    /// Runs, asking for a graceful stop once `limit` has passed, so a test that waits for something the runtime
    /// fails to do ends with a result to check instead of hanging.
    func run(stoppingAfter limit: Duration) async -> WorkerRunSummary {
        async let summary = run()
        let stopper = Task {
            try await Task.sleep(for: limit)
            requestShutdown()
        }
        let finished = await summary
        stopper.cancel()
        return finished
    }
}
