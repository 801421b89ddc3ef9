import Dispatch
import Foundation
import Synchronization

/// Releases freed operations' dependencies later, on a background queue, one level at a time.
///
/// Foundation's `Operation.deinit` releases the operation's dependencies; a dependency whose
/// last reference that was is freed right there, inside it, and releases its own, and so on
/// down a chain: freeing the end of a chain of 50,000 operations overflowed the stack. An
/// `AsyncOperation` being freed hands its dependencies here first, so Foundation's release is
/// never the last one; the drain then lets go of them from the top, where each one freed hands
/// over its own dependencies in turn instead of freeing them inside.
enum DependencyRelease {
    // Locking: `pending` (Mutex) holds the operations to release and whether a drain is on its
    // way; the drain lets go of them with the lock released.
    private static let pending = Mutex<(operations: [Operation], draining: Bool)>(([], false))

    /// Keeps `operations` until the drain lets go of them.
    static func hold(_ operations: [Operation]) {
        guard !operations.isEmpty else { return }
        let startDrain = pending.withLock { state -> Bool in
            state.operations += operations
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if startDrain { DispatchQueue.global(qos: .utility).async { drain() } }
    }

    /// Lets go of what is held until nothing is: those freed hand their dependencies to `hold`.
    private static func drain() {
        while true {
            let operations = pending.withLock { state -> [Operation]? in
                guard !state.operations.isEmpty else {
                    state.draining = false
                    return nil
                }
                defer { state.operations = [] }
                return state.operations
            }
            guard operations != nil else { return }
        }
    }
}
