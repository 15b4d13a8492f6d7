import Foundation
import PipelineApp

// Debian's Tesseract uses OpenMP, which reads OMP_THREAD_LIMIT once when the library loads: setting it from
// Swift is too late. When it is unset, set it and re-execute this program so the limit is in force (NOTES.md).
if ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil {
    setenv("OMP_THREAD_LIMIT", "1", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // execv only returns on failure: carry on with the limit unset rather than not at all.
}
await PipelineCommand.runFromCommandLine()
