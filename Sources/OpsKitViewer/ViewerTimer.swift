import OpsKit

/// One deadline of a viewer's reader thread (the heartbeat watchdog's, the next reconnect
/// attempt's), kept by the viewer's `SimulationClock`: when it is due, it marks itself due and
/// wakes the thread, which takes the mark (`takeDue()`) and decides what to do.
final class ViewerTimer: Sendable {
    private struct State {
        var work: ScheduledWork?
        /// Bumped by `arm` and `cancel`: work scheduled for an older arming marks nothing.
        var generation: UInt64 = 0
        var due = false
    }

    private let clock: any SimulationClock
    private let wakeup: WakePipe
    private let state = OpsMutex(State())

    init(clock: any SimulationClock, wakeup: WakePipe) {
        self.clock = clock
        self.wakeup = wakeup
    }

    /// Falls due `delay` from now on the clock (instead of any earlier arming).
    func arm(after delay: Duration) {
        let generation = state.withLock { state -> UInt64 in
            state.work?.cancel()
            state.generation += 1
            state.due = false
            return state.generation
        }
        let work = clock.schedule(after: delay) { [self] in
            let marked = state.withLock { state -> Bool in
                guard state.generation == generation else { return false }
                state.due = true
                return true
            }
            if marked { wakeup.wake() }
        }
        state.withLock { state in
            if state.generation == generation { state.work = work } else { work.cancel() }
        }
    }

    /// Whether the armed deadline passed since the last call (then it is disarmed).
    func takeDue() -> Bool {
        state.withLock { state in
            defer { state.due = false }
            return state.due
        }
    }

    /// Disarms it: nothing stays scheduled on the clock.
    func cancel() {
        state.withLock { state in
            state.work?.cancel()
            state.work = nil
            state.generation += 1
            state.due = false
        }
    }
}
