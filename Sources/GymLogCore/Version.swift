/// gymlog's version: `gymlog --version`, `gymlog -V` and the man page's footer show it.
public let gymlogVersion = "0.11.0"
