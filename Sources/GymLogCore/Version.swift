/// gymlog's release: the one version number of the client and the server. `gymlog --version`,
/// `gymlog-server --version`, `/v1/capabilities` (`server_version`), `gymlog status` and the
/// man page's footer show it. Raised once per release, with CHANGELOG's section of that number.
public let gymlogVersion = "0.12.0"
