/// Every endpoint of the protocol, with its method and path: the server builds its router from
/// this list (so the OpenAPI conformance test checks the spec against exactly what is served),
/// and the client sends its requests to these paths.
public enum Endpoint: String, CaseIterable, Sendable {
    case healthz, readyz, metrics, capabilities, register, push, pull
    /// Protocol v2's compact pull; v2 keeps every other endpoint of v1.
    case compactPull
    /// `GET /v1/account` and `PUT /v1/account/key`: end-to-end encryption's key verifier.
    case account, accountKey

    /// The HTTP methods the endpoints take.
    public enum Method: String, Sendable, CustomStringConvertible {
        case get = "GET", post = "POST", put = "PUT"

        public var description: String { rawValue }
    }

    /// The one method this endpoint takes.
    public var method: Method {
        switch self {
        case .healthz, .readyz, .metrics, .capabilities, .pull, .compactPull, .account: .get
        case .register, .push: .post
        case .accountKey: .put
        }
    }

    /// The absolute path, below the server's base URL.
    public var path: String {
        switch self {
        case .healthz: "/healthz"
        case .readyz: "/readyz"
        case .metrics: "/metrics"
        case .capabilities: "/v1/capabilities"
        case .register: "/v1/register"
        case .push: "/v1/push"
        case .pull: "/v1/pull"
        case .compactPull: "/v2/pull"
        case .account: "/v1/account"
        case .accountKey: "/v1/account/key"
        }
    }

    /// The versioned paths' first segments (`/v1`, `/v2`): a server's base URL ends before them.
    public static let versionPrefixes: [String] = {
        var prefixes: [String] = []
        for endpoint in allCases {
            let segments = endpoint.path.split(separator: "/")
            guard segments.count > 1 else { continue }
            let prefix = "/" + segments[0]
            if !prefixes.contains(prefix) { prefixes.append(prefix) }
        }
        return prefixes
    }()
}

/// The query parameters of a pull (`GET /v1/pull`, `GET /v2/pull`).
public enum PullParameter: String, CaseIterable, Sendable {
    /// The pulling database's device id.
    case deviceID = "device_id"
    /// Where the page starts: `<epoch>:<n>`, or `0` from the beginning.
    case cursor
    /// The most field rows (v1) or changes (v2) in the page.
    case limit
    /// The highest seq the server acknowledged to this device.
    case ackedSeq = "acked_seq"
    /// The cursor position where the device's last complete pull ended.
    case since
}
