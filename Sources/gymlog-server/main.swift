import GymLogServer

await ServerCommand.runFromCommandLine()
