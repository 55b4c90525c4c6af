import GymLogCLI
import Foundation

// `gymlog log ...` and `gymlog --version` skip the argument parser when they can, without
// starting Swift concurrency (FastPath.swift); `runCommandLine` reads `status`, `rest` and
// `finish` by hand too, and sends everything else through ArgumentParser's async main.
if let status = Gymlog.runFastPath(Array(CommandLine.arguments.dropFirst())) {
    exit(status)
}
await Gymlog.runCommandLine()
