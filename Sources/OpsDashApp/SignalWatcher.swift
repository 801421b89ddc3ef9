import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a flag a run loop polls, instead of killing the process
/// (headless mode: print the summary so far, then exit 130/143/129).
final class SignalWatcher {
    private let received = Atomic<Int32>(0)
    private let queue = DispatchQueue(label: "opsdash.signals")
    private var sources: [any DispatchSourceSignal] = []

    /// Starts watching `signals` (their default action is disabled while watched).
    init(_ signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                _ = self?.received.compareExchange(expected: 0, desired: number, ordering: .relaxed)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal received, if any.
    var signalReceived: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
