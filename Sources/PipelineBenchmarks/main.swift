import PipelineApp

limitOpenMPThreads()
await BenchmarksCommand.runMappingUsageErrors()
