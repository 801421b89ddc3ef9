import Foundation

/// Polls `condition` on the calling thread until it holds or `timeout` of wall-clock time passes;
/// returns whether it held.
///
/// For waiting on other threads (a queue starting an operation, a monitor applying changes).
/// The condition must only look: never advance a `ManualClock` inside it — drive virtual time
/// outside, then wait for its effects.
public func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

/// Checks `condition` every millisecond until it holds or `timeout` of wall-clock time passes;
/// returns whether it held. The async form suspends between checks instead of blocking a
/// thread: in a Swift Testing suite, whose tests share a few threads with the queues they
/// test, blocked threads make the queues' work wait for a thread.
public func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Waits for `semaphore` with a deadline; false means it never came.
public func waitFor(_ semaphore: DispatchSemaphore, seconds: Double = 30) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}
