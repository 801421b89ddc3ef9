import OpsKit

/// A count of slots that tasks wait for without holding a thread while they wait.
///
/// `OwnThreadTrait` takes one per test, so no more blocking tests run at once than the machine
/// has cores: giving each a thread of its own must not turn 90 end-to-end tests loose together.
package final class TestSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: OpsMutex<State>

    /// `count` slots, at least one.
    package init(count: Int) { state = OpsMutex(State(free: max(1, count))) }

    /// Free slots and waiting tasks, for tests.
    package var counts: (free: Int, waiting: Int) { state.withLock { ($0.free, $0.waiting.count) } }

    /// Takes a slot, suspending until one is free.
    package func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back: to the longest waiting task if there is one.
    package func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
