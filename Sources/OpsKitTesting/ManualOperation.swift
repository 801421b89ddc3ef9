import OpsKit
import Synchronization

/// An async operation the test finishes by hand (or that finishes itself from `onExecute`).
///
/// `execute()` calls `onExecute(self)`; call `finish()` / `finish(error:)` whenever the test
/// wants the work to end. Counts cancel hooks and deinits, so tests can check both.
public final class ManualOperation: AsyncOperation, @unchecked Sendable {
    // Locking: no mutable state of its own; the counters are atomics.
    /// Runs when the queue starts the operation.
    public let onExecute: @Sendable (ManualOperation) -> Void
    /// How many times `operationDidCancel()` ran.
    public let cancelHooks = Atomic<Int>(0)
    /// How many `ManualOperation`s were deallocated (all instances, all tests).
    public static let deinits = Atomic<Int>(0)

    /// Creates an operation named `name` whose work is `onExecute`.
    public init(name: String, onExecute: @escaping @Sendable (ManualOperation) -> Void = { _ in }) {
        self.onExecute = onExecute
        super.init()
        self.name = name
    }

    public override func execute() { onExecute(self) }
    public override func operationDidCancel() { cancelHooks.add(1, ordering: .relaxed) }
    deinit { Self.deinits.add(1, ordering: .relaxed) }
}
