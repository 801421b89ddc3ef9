/// A command a controller sends to change the published queue (docs/PROTOCOL.md, "Commands").
/// Its wire form is `ViewerMessage.control`; carrying it out is the publisher's.
public enum RemoteCommand: Sendable, Equatable {
    case cancel(operationID: Int)
    /// Cancels each of these operations (at most `RemoteProtocol.maximumCancelMany`).
    case cancelMany(operationIDs: [Int])
    case cancelAll
    case suspend
    case resume
    case setLimit(Int)

    /// Every command's wire name, in the order the protocol lists them.
    package static let names = ["cancel", "cancel_many", "cancel_all", "suspend", "resume", "set_limit"]

    /// The wire name (`cmd`).
    public var name: String {
        switch self {
        case .cancel: "cancel"
        case .cancelMany: "cancel_many"
        case .cancelAll: "cancel_all"
        case .suspend: "suspend"
        case .resume: "resume"
        case .setLimit: "set_limit"
        }
    }
}
