import PipelineApp

prepareProcessEnvironment()
await PipelineCommand.runFromCommandLine()
