import OpsMonitor

/// Why a line could not be read: a stable code (as the wire protocol names it) and a precise message.
public struct EventLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stable error code.
    public enum Code: String, Sendable {
        /// Not JSON, not UTF-8, not an object, or a field missing or of the wrong type.
        case badLine = "bad_line"
        /// Longer than the decoder's bound.
        case lineTooLong = "line_too_long"
    }

    public var code: Code
    /// What is wrong, naming the field or byte position.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
