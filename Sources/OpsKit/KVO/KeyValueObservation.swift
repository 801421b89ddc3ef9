#if !canImport(ObjectiveC)
import Synchronization

/// A registered observation; observing stops on `invalidate()` or when this token is released,
/// as with Foundation's `NSKeyValueObservation`.
public final class NSKeyValueObservation: Sendable {
    private let stop: Mutex<(@Sendable () -> Void)?>

    init(stop: @escaping @Sendable () -> Void) {
        self.stop = Mutex(stop)
    }

    /// Stops observing. Safe from any thread, any number of times.
    public func invalidate() {
        let action = stop.withLock { current -> (@Sendable () -> Void)? in
            let action = current
            current = nil
            return action
        }
        action?()
    }

    deinit { invalidate() }
}
#endif
