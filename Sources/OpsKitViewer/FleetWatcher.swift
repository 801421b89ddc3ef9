import Foundation
import OpsKit
import OpsMonitor

/// Watches every queue published in a directory, for `opsdash attach`'s fleet list: one
/// summary-only connection per app and a `status` request per round (`interval`), all on one
/// thread of its own. What it keeps per app is a `FleetEntry`: a few numbers.
package final class FleetWatcher: Sendable {
    /// Time between two rounds: how often each app is asked for its `status`.
    package static let defaultInterval: Duration = .seconds(1)

    private struct State {
        var book: FleetBook
        /// Rises with every round and answer: the list has something new to draw.
        var version: UInt64 = 0
        var stopped = false
        var started = false
    }

    private let directory: String
    private let interval: Duration
    private let state: OpsMutex<State>
    /// Written to by `stop`, to end the thread's wait at once.
    private let wake = WakePipe()

    package init(
        directory: String, interval: Duration = defaultInterval, keepDeparted: Double = FleetBook.defaultKeepDeparted
    ) {
        self.directory = directory
        self.interval = interval
        state = OpsMutex(State(book: FleetBook(keepDeparted: keepDeparted)))
    }

    /// One round, waiting at most `timeout` for every app's answer: the entries then (for
    /// `--list --headless`, which needs no thread).
    package static func once(in directory: String, timeout: Duration) -> [FleetEntry] {
        var links = FleetLinks()
        var book = FleetBook()
        links.round(in: directory, book: &book, now: Date().timeIntervalSince1970)
        let deadline = ContinuousClock.now + timeout
        while !links.allAnswered, ContinuousClock.now < deadline {
            links.poll(timeout: ContinuousClock.now.duration(to: deadline), wake: nil, book: &book) {
                Date().timeIntervalSince1970
            }
        }
        links.closeAll()
        return book.entries
    }

    /// Starts the thread (once).
    package func start(onChange: @escaping @Sendable () -> Void = {}) {
        let starts = state.withLock { state -> Bool in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            return true
        }
        if starts { Thread.detachNewThread { [self] in run(onChange: onChange) } }
    }

    /// Stops the thread; its connections close.
    package func stop() {
        state.withLock { $0.stopped = true }
        wake.wake()
    }

    /// The entries now, and the version they are from.
    package func entries() -> (entries: [FleetEntry], version: UInt64) {
        state.withLock { ($0.book.entries, $0.version) }
    }

    /// How often, at most, answers coming in one by one are handed to the list (it draws at
    /// most this often anyway): a round's answers arrive spread over a few milliseconds.
    static let publishInterval: Duration = .milliseconds(100)

    private func run(onChange: @Sendable () -> Void) {
        var links = FleetLinks()
        var book = state.withLock { $0.book }
        var nextRound = ContinuousClock.now
        var changed = false
        var lastPublish = ContinuousClock.now
        while !state.withLock({ $0.stopped }) {
            let now = ContinuousClock.now
            if now >= nextRound {
                nextRound = now + interval
                links.round(in: directory, book: &book, now: Date().timeIntervalSince1970)
                changed = true
            }
            if changed, links.allAnswered || now - lastPublish >= Self.publishInterval {
                publish(book)
                onChange()
                changed = false
                lastPublish = now
            }
            let wakeAt = changed ? min(nextRound, lastPublish + Self.publishInterval) : nextRound
            let heard = links.poll(
                timeout: ContinuousClock.now.duration(to: wakeAt), wake: wake.readEnd >= 0 ? wake.readEnd : nil,
                book: &book
            ) { Date().timeIntervalSince1970 }
            changed = changed || heard
        }
        links.closeAll()
    }

    private func publish(_ book: FleetBook) {
        state.withLock { state in
            state.book = book
            state.version &+= 1
        }
    }
}
