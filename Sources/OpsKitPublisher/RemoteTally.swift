import OpsWire

/// What a publisher has served so far, for metrics (`opsdash_remote_*`, docs/METRICS.md): viewers
/// by role now, resyncs by reason and commands by name and result since the start. Plain counts
/// keyed by the label values, so OpsKitPublisher needs no metrics backend; every key that can appear
/// is present from the start (at zero).
public struct RemoteTally: Sendable, Equatable {
    /// Why a viewer was sent a fresh snapshot after it had joined: it asked, it fell behind the
    /// event ring, or a burst started (`PublisherCore.burstReason`).
    package static let resyncReasons = ["asked", "lagged", "burst"]
    /// The commands a controller may send (`RemoteCommand.name`).
    public static let commands = RemoteCommand.names
    /// How a command ended: carried out, or refused with one of these error codes.
    public static let results = [
        "ok", RemoteErrorCode.forbidden.rawValue, RemoteErrorCode.notFound.rawValue,
        RemoteErrorCode.badArgument.rawValue,
    ]

    /// Streaming viewers by role (`observer`, `controller`).
    public var clients: [String: Int]
    /// Resyncs by reason.
    public var resyncs: [String: Int]
    /// Commands by name, then by result.
    public var commands: [String: [String: Int]]

    /// Every key at zero.
    public init() {
        clients = [RemoteRole.observer.rawValue: 0, RemoteRole.controller.rawValue: 0]
        resyncs = Dictionary(uniqueKeysWithValues: Self.resyncReasons.map { ($0, 0) })
        let results = Dictionary(uniqueKeysWithValues: Self.results.map { ($0, 0) })
        commands = Dictionary(uniqueKeysWithValues: Self.commands.map { ($0, results) })
    }

    /// Counts `cmd` ending with `result` (ignored when either is not in the fixed sets).
    mutating func countCommand(_ cmd: String, _ result: String) {
        guard commands[cmd]?[result] != nil else { return }
        commands[cmd]?[result]? += 1
    }
}
