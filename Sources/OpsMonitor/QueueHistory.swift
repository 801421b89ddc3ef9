import OpsKit

/// The queue's per-second aggregates over a sliding window of the monitor's clock: operations
/// finished by outcome, bytes completed, and how many ran and waited, for each second.
///
/// Bounded: one `Second` of 32 bytes per second of window (6 series: about 5.3 bytes per
/// second per series), so the default 15-minute window holds 28.8 KB at most, allocated once
/// the first second closes. No work while the queue is idle: nothing runs on a timer; a second
/// closes when the next change comes after it, and the quiet seconds in between are filled
/// then, O(1) each (never more than the window). Readers see the seconds after the newest
/// change as quiet ones, computed when read. A change costs O(1) and allocates nothing unless
/// it closes a second.
package struct QueueHistory: Sendable, Equatable {
    /// The 15 minutes a store keeps unless its limits say otherwise.
    package static let defaultWindow = 900
    /// The longest window a store keeps (a day: 2.8 MB).
    package static let maximumWindow = 86_400

    /// One aggregate series.
    package enum Series: String, Sendable, CaseIterable {
        /// Operations that finished in the second, by outcome, and all of them.
        case succeeded, failed, cancelled, finished
        /// Bytes completed in the second.
        case bytes
        /// Operations running at the end of the second.
        case running
        /// Operations not started yet (waiting for dependencies or ready) at the end of the second.
        case waiting
    }

    /// The aggregates of one second. Counts saturate at `UInt32.max`.
    package struct Second: Sendable, Equatable {
        package var bytes: Int64 = 0
        package var succeeded: UInt32 = 0
        package var failed: UInt32 = 0
        package var cancelled: UInt32 = 0
        package var running: UInt32 = 0
        package var waiting: UInt32 = 0

        package init(
            bytes: Int64 = 0, succeeded: UInt32 = 0, failed: UInt32 = 0, cancelled: UInt32 = 0, running: UInt32 = 0,
            waiting: UInt32 = 0
        ) {
            self.bytes = bytes
            self.succeeded = succeeded
            self.failed = failed
            self.cancelled = cancelled
            self.running = running
            self.waiting = waiting
        }

        /// A quiet second: nothing finished or moved, the same levels as `self`.
        var quiet: Second { Second(running: running, waiting: waiting) }

        /// The value of `series` in this second.
        package func value(_ series: Series) -> Int64 {
            switch series {
            case .succeeded: Int64(succeeded)
            case .failed: Int64(failed)
            case .cancelled: Int64(cancelled)
            case .finished: Int64(succeeded) + Int64(failed) + Int64(cancelled)
            case .bytes: bytes
            case .running: Int64(running)
            case .waiting: Int64(waiting)
            }
        }
    }

    /// Seconds kept, the current one included.
    package let window: Int
    /// Closed seconds, a ring once full: `ring[next]` is the oldest when `ring.count == window - 1`.
    private var ring: [Second] = []
    private var next = 0
    /// The second changes go into, and its number (whole seconds of clock time); nil before any.
    private var current = Second()
    package private(set) var currentSecond: Int64? {
        didSet { nextSecondStart = currentSecond.map(Self.start(after:)) ?? .zero }
    }
    /// Where the current second ends: a change before it needs no division to place it.
    private var nextSecondStart = Duration.zero

    /// An empty history keeping `window` seconds (clamped to 2 ... `maximumWindow`).
    package init(window: Int = QueueHistory.defaultWindow) {
        self.window = min(max(2, window), Self.maximumWindow)
    }

    /// A history of `window` seconds holding `seconds` (oldest first; the last `window` kept),
    /// the last of them the second `newest` (a history read from a keyframe).
    package init(window: Int = QueueHistory.defaultWindow, seconds: [Second], newest: Int64) {
        self.init(window: window)
        guard let last = seconds.last else { return }
        let kept = seconds.suffix(self.window)
        currentSecond = max(0, newest - Int64(kept.count - 1))
        for second in kept.dropLast() {
            current = second
            close(second)
        }
        current = last
        currentSecond = max(0, newest)
        nextSecondStart = Self.start(after: max(0, newest))  // observers do not run in an initializer
    }

    /// The same seconds in a history of `window` seconds (the newest kept when shorter).
    package func resized(to window: Int) -> QueueHistory {
        guard window != self.window, let currentSecond else {
            return window == self.window ? self : QueueHistory(window: window)
        }
        return QueueHistory(window: window, seconds: seconds(endingAt: .zero), newest: currentSecond)
    }

    // MARK: Recording (O(1) unless a second closes)

    /// Records a change at `time`: a finish with `outcome`, `bytes` completed, and the levels
    /// after it (operations running and not started).
    package mutating func record(
        at time: Duration, finished outcome: Outcome? = nil, bytes: Int64 = 0, running: Int, waiting: Int
    ) {
        advance(to: time)
        switch outcome {
        case .succeeded?: current.succeeded = Self.adding(current.succeeded, 1)
        case .failed?: current.failed = Self.adding(current.failed, 1)
        case .cancelled?: current.cancelled = Self.adding(current.cancelled, 1)
        case nil: break
        }
        if bytes > 0 {
            current.bytes = current.bytes.addingReportingOverflow(bytes).overflow ? .max : current.bytes + bytes
        }
        current.running = Self.clamped(running)
        current.waiting = Self.clamped(waiting)
    }

    /// Moves to the second holding `time`, closing the seconds before it (a change stamped
    /// before the current second counts in the current one).
    mutating func advance(to time: Duration) {
        if time.isShorter(than: nextSecondStart) { return }  // the current second (or, stamped earlier, counted in it)
        let second = Self.second(of: time)
        guard let currentSecond else {
            self.currentSecond = second
            return
        }
        guard second > currentSecond else { return }
        close(current)
        // The quiet seconds in between, at most a window of them: the levels stayed.
        let quiet = current.quiet
        for _ in 0..<min(second - currentSecond - 1, Int64(window - 1)) { close(quiet) }
        current = quiet
        self.currentSecond = second
    }

    private mutating func close(_ second: Second) {
        let capacity = window - 1
        if ring.count < capacity {
            if ring.isEmpty { ring.reserveCapacity(capacity) }
            ring.append(second)
        } else {
            ring[next] = second
            next = (next + 1) % capacity
        }
    }

    // MARK: Reading

    /// The seconds held, oldest first, ending with the second holding `time` (quiet seconds
    /// after the newest change included): the last `count` of them, at most `window`, none
    /// before the first change.
    package func seconds(endingAt time: Duration, count: Int = .max) -> [Second] {
        var result: [Second] = []
        result.reserveCapacity(secondsCount(endingAt: time, count: count))
        forEachSecond(endingAt: time, count: count) { result.append($0) }
        return result
    }

    /// How many seconds `seconds(endingAt:count:)` returns.
    package func secondsCount(endingAt time: Duration, count: Int = .max) -> Int {
        guard let currentSecond, count > 0 else { return 0 }
        let limit = min(count, window)
        let end = max(currentSecond, Self.second(of: time))
        let quiet = Int(min(end - currentSecond, Int64(limit)))
        return min(limit, ring.count + 1 + quiet)
    }

    /// Calls `body` with each second `seconds(endingAt:count:)` returns, oldest first, with no
    /// array made (the header reads 30 of them every frame).
    package func forEachSecond(endingAt time: Duration, count: Int = .max, _ body: (Second) -> Void) {
        guard let currentSecond, count > 0 else { return }
        let limit = min(count, window)
        let end = max(currentSecond, Self.second(of: time))
        let quiet = Int(min(end - currentSecond, Int64(limit)))
        let showsCurrent = quiet < limit
        let closed = min(ring.count, limit - quiet - (showsCurrent ? 1 : 0))
        // The closed seconds from the oldest shown: a slice of the ring, or two once it wrapped
        // (read in place, no division a second).
        ring.withUnsafeBufferPointer { ring in
            let first = ring.count - closed
            guard ring.count == window - 1, next > 0 else {
                for index in first..<ring.count { body(ring[index]) }
                return
            }
            let start = next + first
            if start >= ring.count {
                for index in (start - ring.count)..<next { body(ring[index]) }
                return
            }
            for index in start..<ring.count { body(ring[index]) }
            for index in 0..<next { body(ring[index]) }
        }
        if showsCurrent { body(current) }
        let quietSecond = current.quiet
        for _ in 0..<quiet { body(quietSecond) }
    }

    /// The values of `series` for the last `count` seconds ending with the second holding `time`,
    /// oldest first; seconds before the history began are left out (fewer values).
    package func values(_ series: Series, endingAt time: Duration, count: Int) -> [Int64] {
        seconds(endingAt: time, count: count).map { $0.value(series) }
    }

    /// Whether no change was ever recorded.
    package var isEmpty: Bool { currentSecond == nil }

    /// The whole second holding `time` (negative times in second 0).
    package static func second(of time: Duration) -> Int64 {
        max(.zero, time).components.seconds
    }

    /// Where second `second` ends (a peer's time may be anything: no overflow at the last one).
    private static func start(after second: Int64) -> Duration {
        .seconds(second < .max ? second + 1 : second)
    }

    private static func adding(_ value: UInt32, _ more: UInt32) -> UInt32 {
        value.addingReportingOverflow(more).overflow ? .max : value + more
    }

    private static func clamped(_ value: Int) -> UInt32 {
        UInt32(clamping: max(0, value))
    }
}
