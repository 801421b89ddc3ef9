import OpsDashUI
import OpsKit

/// Where the dashboard's other parts tell its loop what happened, from any thread: a source's
/// link state, a command the app refused, a notice, a stop signal (as bubbletea's
/// `Program.Send`).
///
/// The loop takes what was sent each time it wakes (at least every `stopPollMilliseconds`), in
/// the order sent. An action sent for later (a notice's expiry) waits until it is due. Only the
/// newest link state waits (an older one is replaced), and at most `limit` other actions (the
/// oldest are dropped), so a sender that outpaces the loop costs bounded memory.
package final class LoopInbox: Sendable {
    private struct Mail {
        var actions: [Action] = []
        var later: [(due: ContinuousClock.Instant, action: Action)] = []
        var stop: Int32?
    }

    /// Actions kept for the loop at most (and as many sent for later).
    package static let limit = 256

    // Locking: `mail` is only touched under its lock; nothing is called while it is held.
    private let mail = OpsMutex(Mail())

    /// An empty inbox.
    package init() {}

    /// Sends `action` to the loop.
    package func send(_ action: Action) {
        mail.withLock { mail in
            if case .source = action { mail.actions.removeAll { if case .source = $0 { true } else { false } } }
            mail.actions.append(action)
            if mail.actions.count > Self.limit { mail.actions.removeFirst(mail.actions.count - Self.limit) }
        }
    }

    /// Sends `action` to the loop once `due` has come.
    package func send(_ action: Action, at due: ContinuousClock.Instant) {
        mail.withLock { mail in
            mail.later.append((due, action))
            if mail.later.count > Self.limit { mail.later.removeFirst(mail.later.count - Self.limit) }
        }
    }

    /// Ends the loop with `signal`'s exit (the first stop sent wins).
    package func stop(signal: Int32) {
        mail.withLock { mail in
            if mail.stop == nil { mail.stop = signal }
        }
    }

    /// The stop signal sent, if any.
    var stopSignal: Int32? { mail.withLock { $0.stop } }

    /// Takes the actions sent, oldest first, then those sent for later that are due at `now`
    /// (in the order they are due).
    func take(now: ContinuousClock.Instant) -> [Action] {
        mail.withLock { mail in
            var taken = mail.actions
            mail.actions = []
            if !mail.later.isEmpty {
                let due = mail.later.filter { $0.due <= now }.sorted { $0.due < $1.due }
                if !due.isEmpty {
                    mail.later.removeAll { $0.due <= now }
                    taken += due.map(\.action)
                }
            }
            return taken
        }
    }
}
