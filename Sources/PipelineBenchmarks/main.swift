import PipelineApp

prepareProcessEnvironment()
await BenchmarksCommand.runMappingUsageErrors()
