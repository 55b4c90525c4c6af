import Foundation
import GymLogSyncClient
import GymLogTestSupport

extension ClientDevice {
    /// A transport that reads the server as this device's account does: with its key's
    /// verifier when the account is encrypted end to end (the server refuses a pull without it).
    func serverTransport(_ server: ServerInstance, token: String) throws -> HTTPSyncTransport {
        var transport = HTTPSyncTransport(baseURL: URL(string: server.url)!, token: token)
        transport.keyVerifier = try home.valueSeal()?.key.verifier
        return transport
    }
}
