import ArgumentParser
import PipelineCore

/// An expense status as a command-line value (`--status needs_review`): ArgumentParser refuses any other word and
/// lists the statuses in the help and the error.
extension ExpenseStatus: ExpressibleByArgument {}
