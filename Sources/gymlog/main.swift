import GymLogCLI
import Foundation

// `gymlog log ...` is the hot one-shot command (shortcuts, scripts): it skips the full
// argument parser when it can. Everything else goes through ArgumentParser's async main.
if let status = Gymlog.runFastPath(Array(CommandLine.arguments.dropFirst())) {
    exit(status)
}
await Gymlog.runCommandLine()
