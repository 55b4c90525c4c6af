import Foundation

/// A failure the user can act on: a full sentence that quotes the bad input and says what
/// to do, plus where in the typed line it is when it came from one.
public struct UserError: Error, LocalizedError, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var span: Span?
    public init(_ message: String, at span: Span? = nil) { self.message = message; self.span = span }
    public var errorDescription: String? { message }
    public var description: String { message }
}

extension EntryError: LocalizedError {
    public var errorDescription: String? { message }
}
