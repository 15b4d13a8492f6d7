import PipelineApp

limitOpenMPThreads()
await PipelineCommand.runFromCommandLine()
