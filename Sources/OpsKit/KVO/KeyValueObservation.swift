#if !canImport(ObjectiveC)
import Synchronization

/// A registered observation; observing stops on `invalidate()` or when this token is released,
/// as with Foundation's `NSKeyValueObservation`.
public final class NSKeyValueObservation: Sendable {
    /// Strong: a token keeps the (small) registry alive, not the observed object. No weak
    /// reference anywhere on the path: objects with one pay a side-table lookup on every
    /// retain and release, i.e. on every delivery.
    private struct Registration: Sendable {
        var registry: KeyValueObserverRegistry?
        var entry: ObserverEntry?
    }

    private let registration: Mutex<Registration>

    init(registry: KeyValueObserverRegistry, entry: ObserverEntry) {
        registration = Mutex(Registration(registry: registry, entry: entry))
    }

    /// Stops observing. Safe from any thread, any number of times.
    public func invalidate() {
        let (registry, entry) = registration.withLock { current in
            defer { current = Registration() }
            return (current.registry, current.entry)
        }
        if let registry, let entry { registry.remove(entry) }
    }

    deinit { invalidate() }
}
#endif
