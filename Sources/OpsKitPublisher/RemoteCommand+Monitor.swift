import OpsMonitor
import OpsWire

extension RemoteCommand {
    /// What the queue was like before a command, for its audit text: the cancelled
    /// operation's name, the limit that was changed.
    public struct Before: Sendable, Equatable {
        /// The name of the operation a `cancel` names (nil when unknown).
        public var name: String?
        /// The concurrency limit before a `set_limit` (nil when unknown; below 1: none).
        public var limit: Int?

        public init(name: String? = nil, limit: Int? = nil) {
            self.name = name
            self.limit = limit
        }

        /// Read from `monitor` just before `command` is carried out on it.
        public init(_ command: RemoteCommand, on monitor: QueueMonitor) {
            switch command {
            case .cancel(let id): self.init(name: monitor.operationName(id: id))
            case .setLimit: self.init(limit: monitor.maxConcurrentOperationCount)
            default: self.init()
            }
        }
    }

    /// Ids a `cancel_many` audit text lists before "…".
    static let auditedIDs = 8

    /// The audit text, who and what: "uid 1000 (alice): cancel #12 photo-1-6.jpg",
    /// "uid 1000 (alice): limit 3→4", "uid 1000 (alice): suspend".
    package func audit(by who: String, before: Before = .init()) -> String {
        "\(who): " + what(before)
    }

    /// What the command did: "cancel #12 photo-1-6.jpg", "cancel 12 operations (#3 #4 #5 …)",
    /// "limit 3→4", "cancel all", "suspend".
    func what(_ before: Before) -> String {
        switch self {
        case .cancel(let id): "cancel #\(id)" + (before.name.map { " " + $0 } ?? "")
        case .cancelMany(let ids):
            "cancel \(ids.count) operation\(ids.count == 1 ? "" : "s") ("
                + ids.prefix(Self.auditedIDs).map { "#\($0)" }.joined(separator: " ")
                + (ids.count > Self.auditedIDs ? " …)" : ")")
        case .cancelAll: "cancel all"
        case .suspend: "suspend"
        case .resume: "resume"
        case .setLimit(let limit):
            "limit " + (before.limit.map { ($0 < 1 ? "unlimited" : "\($0)") + "→" } ?? "") + "\(limit)"
        }
    }

    /// Carries the command out on `monitor` (and so on its queue).
    public func perform(on monitor: QueueMonitor) {
        switch self {
        case .cancel(let id): monitor.cancel(id: id)
        case .cancelMany(let ids): for id in ids { monitor.cancel(id: id) }
        case .cancelAll: monitor.cancelAll()
        case .suspend: monitor.setSuspended(true)
        case .resume: monitor.setSuspended(false)
        case .setLimit(let limit): monitor.setMaxConcurrentOperationCount(limit)
        }
    }
}
