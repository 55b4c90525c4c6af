import GymLogCLI

Gymlog.main()
