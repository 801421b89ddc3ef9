/// The stable error codes of `opsdash/1` replies and errors (docs/PROTOCOL.md).
public enum RemoteErrorCode: String, Sendable, Equatable, CaseIterable {
    /// No token, or a wrong one (TCP); the connection closes.
    case unauthorized
    /// The viewer's role may not do this (an observer sent a command).
    case forbidden
    /// The operation does not exist or has finished.
    case notFound = "not_found"
    /// A field of the command is missing or out of range.
    case badArgument = "bad_argument"
    /// Not a JSON object with a `cmd` string, or not UTF-8.
    case badLine = "bad_line"
    /// Longer than 64 KiB; the connection closes (framing is lost).
    case lineTooLong = "line_too_long"
    /// A command this server does not know; the connection stays.
    case unknownCommand = "unknown_cmd"
    /// Too many lines too fast; this one was not carried out.
    case rateLimited = "rate_limited"
    /// No common protocol version; the connection closes.
    case unsupportedProtocol = "unsupported_protocol"
    /// Something went wrong inside the publisher.
    case `internal`
}

/// A viewer's rights.
public enum RemoteRole: String, Sendable, Equatable {
    /// Sees everything, changes nothing (the default).
    case observer
    /// May also cancel, pause, resume and change the limit (only when the app grants it).
    case controller
}
