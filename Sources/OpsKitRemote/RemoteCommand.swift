import OpsMonitor

/// A command a controller sends to change the published queue.
public enum RemoteCommand: Sendable, Equatable {
    case cancel(operationID: Int)
    case cancelAll
    case suspend
    case resume
    case setLimit(Int)

    /// The wire name (`cmd`).
    public var name: String {
        switch self {
        case .cancel: "cancel"
        case .cancelAll: "cancel_all"
        case .suspend: "suspend"
        case .resume: "resume"
        case .setLimit: "set_limit"
        }
    }

    /// The audit text: "uid 1000 cancelled #3".
    func audit(by who: String) -> String {
        switch self {
        case .cancel(let id): "\(who) cancelled #\(id)"
        case .cancelAll: "\(who) cancelled all operations"
        case .suspend: "\(who) paused the queue"
        case .resume: "\(who) resumed the queue"
        case .setLimit(let limit): "\(who) set the concurrency limit to \(limit)"
        }
    }

    /// Carries the command out on `monitor` (and so on its queue).
    public func perform(on monitor: QueueMonitor) {
        switch self {
        case .cancel(let id): monitor.cancel(id: id)
        case .cancelAll: monitor.cancelAll()
        case .suspend: monitor.setSuspended(true)
        case .resume: monitor.setSuspended(false)
        case .setLimit(let limit): monitor.setMaxConcurrentOperationCount(limit)
        }
    }
}
