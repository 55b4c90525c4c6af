/// Every error code of the protocol (`ErrorDetail.code`): the stable snake_case word an error
/// answer or a rejected event carries, spelled only here. The server answers with these; the
/// client matches them. `ErrorDetail.code` stays a string, so a code this build does not know
/// (from a newer server) still reads.
public enum ErrorCode: String, CaseIterable, Sendable {
    // MARK: Any route

    /// 400: the request is not valid HTTP/1.1, or has more than one Host header.
    case badRequest = "bad_request"
    /// 400: the body ended before its Content-Length.
    case incompleteBody = "incomplete_body"
    /// 400: the body is not strict JSON (RFC 8259) in UTF-8.
    case invalidJSON = "invalid_json"
    /// 400: the body is JSON of another shape than documented.
    case invalidRequest = "invalid_request"
    /// 404: no such path.
    case notFound = "not_found"
    /// 405: a served path asked with another method.
    case methodNotAllowed = "method_not_allowed"
    /// 413: the body is larger than the server's limit.
    case payloadTooLarge = "payload_too_large"
    /// 415: a body that is not `application/json`.
    case unsupportedMediaType = "unsupported_media_type"
    /// 500: the server failed.
    case internalError = "internal_error"
    /// 501: a transfer coding other than `chunked`.
    case unsupportedTransferEncoding = "unsupported_transfer_encoding"
    /// 503: the database cannot serve (unreachable, read-only, corrupt, its disk full).
    case notReady = "not_ready"
    /// 503: the database server (PostgreSQL) does not answer.
    case databaseUnavailable = "database_unavailable"
    /// 503: the server stopped before the request was done.
    case shuttingDown = "shutting_down"
    /// 503: the client's address holds its share of connections, all busy.
    case tooManyConnections = "too_many_connections"

    // MARK: Authentication and the account key

    /// 401: a missing token, or one the server never issued.
    case unauthorized
    /// 401: an administrator replaced the token (`TokenWithdrawal.rotated`).
    case tokenRotated = "token_rotated"
    /// 401: an administrator revoked the account (`TokenWithdrawal.revoked`).
    case tokenRevoked = "token_revoked"
    /// 401: an administrator deleted the account (`TokenWithdrawal.deleted`).
    case accountDeleted = "account_deleted"
    /// 403: the account is encrypted and the request came without its key.
    case keyRequired = "key_required"
    /// 403: the request came with another key than the account's.
    case wrongKey = "wrong_key"
    /// 403: a key sent for an account kept in the clear.
    case notEncrypted = "not_encrypted"
    /// 400 on `PUT /v1/account/key`: the verifier is not 64 lowercase hex digits.
    case invalidVerifier = "invalid_verifier"
    /// 409 on `PUT /v1/account/key`: the account already has another key.
    case keyExists = "key_exists"

    // MARK: Register

    /// 403: the server does not allow registration.
    case registrationClosed = "registration_closed"
    /// 400: not a user name.
    case invalidName = "invalid_name"
    /// 409: the name is taken.
    case userExists = "user_exists"
    /// 429: the address's or the server's registrations per hour are used up.
    case tooManyRegistrations = "too_many_registrations"

    // MARK: Push

    /// 400: not a device id.
    case invalidDeviceID = "invalid_device_id"
    /// 400: the events' seqs are not ascending from 1.
    case invalidSequence = "invalid_sequence"
    /// 403: the account pushed from as many devices as the server allows.
    case tooManyDevices = "too_many_devices"
    /// 409: the push was numbered under another epoch than the user's history has now.
    case epochChanged = "epoch_changed"
    /// 409: the push skips seqs the server has not applied (with `last_applied_seq`).
    case sequenceGap = "sequence_gap"
    /// 413: more events than `max_push_events`.
    case tooManyEvents = "too_many_events"
    /// 422: a clock too far ahead of the server's (with `server_time_ms`).
    case clockAhead = "clock_ahead"
    /// 429: the user's concurrent pushes are used up.
    case tooManyPushes = "too_many_pushes"

    // MARK: Pull

    /// 400: a query parameter given more than once.
    case invalidQuery = "invalid_query"
    /// 400: `cursor` is not `<epoch>:<n>` or `0`.
    case invalidCursor = "invalid_cursor"
    /// 400: `limit` is not a whole number from 1.
    case invalidLimit = "invalid_limit"
    /// 400: `acked_seq` is not a whole number >= 0.
    case invalidAckedSeq = "invalid_acked_seq"
    /// 400: `since` is not a whole number >= 0.
    case invalidSince = "invalid_since"

    // MARK: One pushed event, rejected (`PushResult.error`)

    /// The idempotency key is not 1 to 128 printable ASCII characters.
    case invalidIdempotencyKey = "invalid_idempotency_key"
    /// The entity is not 1 to 32 lowercase letters or underscores.
    case invalidEntity = "invalid_entity"
    /// The entity id is not 1 to 64 printable ASCII characters.
    case invalidEntityID = "invalid_entity_id"
    /// The op is not 1 to 32 lowercase letters or underscores.
    case invalidOp = "invalid_op"
    /// `fields` is not an object of `{"v": value, "c": clock}`.
    case invalidFields = "invalid_fields"
    /// More fields than one event may set.
    case tooManyFields = "too_many_fields"
    /// A field name is not a lowercase name.
    case invalidFieldName = "invalid_field_name"
    /// A field's clock is not a clock.
    case invalidClock = "invalid_clock"
    /// A value of an encrypted account is in the clear.
    case notSealed = "not_sealed"
    /// A value longer than the server keeps.
    case valueTooLarge = "value_too_large"
    /// A value the server cannot keep as sent (an inexact number, a NUL, a value its field does not take).
    case invalidValue = "invalid_value"
    /// The idempotency key already applied to other content.
    case keyReused = "key_reused"

    /// Every code a push can answer for one event, so `/metrics` lists each rejection series
    /// from the start, at zero.
    public static let eventRejections: [ErrorCode] = [
        .invalidIdempotencyKey, .invalidEntity, .invalidEntityID, .invalidOp, .invalidFields, .tooManyFields,
        .invalidFieldName, .invalidClock, .notSealed, .valueTooLarge, .invalidValue, .keyReused,
    ]
}

extension ErrorDetail {
    /// A detail carrying one of the protocol's codes.
    public init(code: ErrorCode, message: String) { self.init(code: code.rawValue, message: message) }
}

/// What an administrator did to a token that once let a user in. A 401 names it in its code,
/// so a device's user learns why the token stopped working and what to do, not "unknown token";
/// a token the server never issued keeps the plain `unauthorized`.
public enum TokenWithdrawal: String, Hashable, Sendable, CaseIterable {
    /// `gymlog-server user rotate`: the user has a new token.
    case rotated
    /// `gymlog-server user revoke` (and a revoked token `user activate` replaced: it stays dead).
    case revoked
    /// `gymlog-server user delete --purge`: the account and its data are gone from the server.
    case deleted

    /// The 401's code: `token_rotated`, `token_revoked`, `account_deleted`.
    public var errorCode: ErrorCode {
        switch self {
        case .rotated: .tokenRotated
        case .revoked: .tokenRevoked
        case .deleted: .accountDeleted
        }
    }

    public init?(errorCode: String) {
        guard let match = Self.allCases.first(where: { $0.errorCode.rawValue == errorCode }) else { return nil }
        self = match
    }

    /// Why the token a `user rotate` or `user activate` replaces stops working.
    public static func replaced(wasRevoked: Bool) -> TokenWithdrawal { wasRevoked ? .revoked : .rotated }
}

/// A machine-readable code and a sentence saying what to do.
public struct ErrorDetail: Codable, Hashable, Sendable {
    /// Stable snake_case code, e.g. `sequence_gap`.
    public var code: String
    public var message: String
    public init(code: String, message: String) { self.code = code; self.message = message }
}

/// Every non-2xx answer: `{"error": {...}}` plus, for some codes, extra context.
public struct ErrorBody: Codable, Hashable, Sendable {
    public var error: ErrorDetail
    /// On `sequence_gap`: the device's acknowledged sequence; resend from the next one.
    public var lastAppliedSeq: Int64?
    /// On `clock_ahead`: the server's wall clock in Unix milliseconds.
    public var serverTimeMs: Int64?

    public init(error: ErrorDetail, lastAppliedSeq: Int64? = nil, serverTimeMs: Int64? = nil) {
        self.error = error; self.lastAppliedSeq = lastAppliedSeq; self.serverTimeMs = serverTimeMs
    }

    public enum CodingKeys: String, CodingKey {
        case error
        case lastAppliedSeq = "last_applied_seq"
        case serverTimeMs = "server_time_ms"
    }
}
