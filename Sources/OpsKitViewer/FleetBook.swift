import OpsMonitor
import OpsWire

/// The fleet list's state as a pure machine: which queues are published (from the sidecars),
/// what each answered, and which went away; no sockets or clocks (the caller passes the wall
/// time, seconds since 1970). An app that went away stays, as `departed`, for `keepDeparted`
/// seconds, then drops.
package struct FleetBook: Sendable {
    /// How long a departed app stays listed (seconds): long enough to notice it went.
    package static let defaultKeepDeparted = 60.0

    package let keepDeparted: Double
    /// By socket path, the key that tells two instances of one app apart.
    private(set) var bySocket: [String: FleetEntry] = [:]

    package init(keepDeparted: Double = FleetBook.defaultKeepDeparted) {
        self.keepDeparted = keepDeparted
    }

    /// The sidecars read now: new queues join, queues no longer published depart.
    package mutating func listed(_ published: [PublishedQueue], at now: Double) {
        let sockets = Set(published.map(\.socket))
        for entry in published {
            if var known = bySocket[entry.socket], known.presence != .departed {
                known.published = entry
                if known.counts == nil { known.viewers = entry.viewers }
                bySocket[entry.socket] = known
            } else {
                bySocket[entry.socket] = FleetEntry(published: entry)
            }
        }
        for (socket, entry) in bySocket where !sockets.contains(socket) && entry.presence != .departed {
            departed(socket, at: now)
        }
        bySocket = bySocket.filter { _, entry in
            guard let gone = entry.departedAt else { return true }
            return now - gone < keepDeparted
        }
    }

    /// The app at `socket` welcomed this viewer with `role`.
    package mutating func welcomed(_ socket: String, role: RemoteRole) {
        bySocket[socket]?.controlAllowed = role == .controller
    }

    /// The app at `socket` answered `status` (its values were bounds-checked by the decoder).
    package mutating func answered(_ socket: String, _ status: PublisherMessage.Status, at now: Double) {
        guard var entry = bySocket[socket], entry.presence != .departed else { return }
        let finished = status.counts.finished
        // Per second of this viewer's wall clock (an app's own clock may run faster, as a
        // demo's simulated one does).
        if let last = entry.lastAnswer, now > last.time {
            let seconds = now - last.time
            // A count that went down (an app that lies, or restarted) is no negative throughput.
            let sample = max(0, Double(finished) - Double(last.finished)) / seconds
            entry.throughput.append(sample.isFinite ? sample : 0)
            if entry.throughput.count > FleetEntry.throughputSamples {
                entry.throughput.removeFirst(entry.throughput.count - FleetEntry.throughputSamples)
            }
        }
        entry.lastAnswer = (now, finished)
        entry.presence = .live
        entry.counts = status.counts
        entry.suspended = status.suspended
        entry.limit = status.limit
        entry.viewers = status.viewers
        entry.lastSeen = now
        bySocket[socket] = entry
    }

    /// The app at `socket` is gone (its sidecar or process, or it said bye).
    package mutating func departed(_ socket: String, at now: Double) {
        guard var entry = bySocket[socket], entry.presence != .departed else { return }
        entry.presence = .departed
        entry.departedAt = now
        bySocket[socket] = entry
    }

    /// Every entry, by app/queue then pid.
    package var entries: [FleetEntry] {
        bySocket.values.sorted {
            ($0.label, $0.published.pid, $0.published.socket) < ($1.label, $1.published.pid, $1.published.socket)
        }
    }
}
