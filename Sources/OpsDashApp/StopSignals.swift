import Foundation
import OpsDashLoop
import OpsKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `opsdash` learns of stop signals (SIGHUP, SIGINT, SIGQUIT, SIGTERM), the same way in the
/// dashboard and in headless mode.
///
/// The signals are blocked in every thread (`blockInThisThread()` at the start of `main`, so
/// every thread started later inherits the mask) and one watcher thread takes them with
/// `sigwait`. No signal handler runs, so there is no C state for an optimizer to duplicate and
/// nothing async-signal-unsafe; headless runs poll `received`, the dashboard's loop is sent the
/// stop in its inbox (`forward(to:)`), and each ends the run itself. A
/// stop signal never reaches the Swift runtime's own handlers (its SIGQUIT backtracer included).
///
/// Until a run loop calls `handOver()` (while arguments are parsed and the scenario loads)
/// there is nothing to restore, so a stop signal ends the process at once with 128 + its
/// number, after the last words set with `beforeHandOver` (headless mode's summary so far).
final class StopSignals: Sendable {
    /// The signals that end a run: SIGHUP, SIGINT, SIGQUIT, SIGTERM.
    static let stopSet: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM]

    private let signals: [Int32]
    private let first = Atomic<Int32>(0)
    private let handedOver = Atomic<Bool>(false)
    /// Said by the watcher thread when a stop signal comes before `handOver()`.
    private let lastWords = OpsMutex<(@Sendable (Int32) -> Void)?>(nil)
    /// The dashboard loop's inbox, sent each stop signal (`forward(to:)`).
    private let inbox = OpsMutex<LoopInbox?>(nil)
    /// The watcher thread, once it has blocked the signals and is about to wait (for tests).
    private let watcher = OpsMutex<pthread_t?>(nil)
    private let watching = DispatchSemaphore(value: 0)

    /// Blocks `signals` in the calling thread and in every thread it creates from now on.
    /// Call before any other thread starts, or a thread that doesn't block them could take one.
    static func blockInThisThread(_ signals: [Int32] = stopSet) {
        var set = Self.signalSet(signals)
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts a thread that waits for `signals` and records the first one received.
    init(_ signals: [Int32] = stopSet) {
        self.signals = signals
        let thread = Thread { [self] in
            nameCurrentThread("opsdash.signals")
            watch()
        }
        thread.start()
        watching.wait()
    }

    /// What to do (on the watcher thread, quickly) when a stop signal comes before
    /// `handOver()`, just before the process ends.
    func beforeHandOver(_ action: @escaping @Sendable (Int32) -> Void) {
        lastWords.withLock { $0 = action }
    }

    /// From now on a stop signal is only recorded, for the caller to poll with `received`.
    func handOver() {
        handedOver.store(true, ordering: .releasing)
    }

    /// From now on sends each stop signal to `inbox` as a stop (one received already at once).
    func forward(to inbox: LoopInbox) {
        self.inbox.withLock { $0 = inbox }
        if let received { inbox.stop(signal: received) }
    }

    /// The first stop signal received, if any.
    var received: Int32? {
        let value = first.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Sends `signal` to the watcher thread only (for tests: a process-wide `kill` in a test
    /// process would reach threads that don't block it).
    func deliverToWatcher(_ signal: Int32) {
        guard let thread = watcher.withLock({ $0 }) else { return }
        _ = pthread_kill(thread, signal)
    }

    private func watch() {
        var set = Self.signalSet(signals)
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
        watcher.withLock { $0 = pthread_self() }
        watching.signal()
        while true {
            var number: Int32 = 0
            guard sigwait(&set, &number) == 0 else { continue }
            _ = first.compareExchange(expected: 0, desired: number, ordering: .releasing)
            inbox.withLock { $0 }?.stop(signal: number)
            if !handedOver.load(ordering: .acquiring) {
                lastWords.withLock { $0 }?(number)
                _exit(128 + number)
            }
        }
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
