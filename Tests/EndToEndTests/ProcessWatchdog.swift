import Foundation

/// Kills `process` if it still runs after `seconds` (a failing test never hangs on its pipes).
final class ProcessWatchdog: @unchecked Sendable {
    // Locking: the timer is set in init and only cancelled after (DispatchSource is thread-safe).
    private let timer: DispatchSourceTimer

    init(_ process: Process, seconds: Int) {
        let pid = process.processIdentifier
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .seconds(seconds))
        timer.setEventHandler { kill(pid, SIGKILL) }
        timer.resume()
    }

    func disarm() { timer.cancel() }
}
