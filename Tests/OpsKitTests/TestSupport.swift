import Foundation
import Synchronization
@testable import OpsKit

/// An async operation the test finishes by hand (or that finishes itself after `execute`).
final class ManualOperation: AsyncOperation, @unchecked Sendable {
    let onExecute: @Sendable (ManualOperation) -> Void
    let cancelHooks = Atomic<Int>(0)
    static let deinits = Atomic<Int>(0)

    init(name: String, onExecute: @escaping @Sendable (ManualOperation) -> Void = { _ in }) {
        self.onExecute = onExecute
        super.init()
        self.name = name
    }

    override func execute() { onExecute(self) }
    override func operationDidCancel() { cancelHooks.add(1, ordering: .relaxed) }
    deinit { Self.deinits.add(1, ordering: .relaxed) }
}

/// Waits for a semaphore with a generous deadline; false means it never came.
func waitFor(_ semaphore: DispatchSemaphore, seconds: Double = 30) -> Bool {
    semaphore.wait(timeout: .now() + seconds) == .success
}

/// Records illegal transitions instead of asserting, for the duration of `body`.
func recordingIllegalTransitions(_ body: () -> Void) -> [String] {
    let recorder = Recorder()
    let previous = IllegalTransitionReporter.install { recorder.add($0) }
    body()
    IllegalTransitionReporter.install(previous)
    return recorder.all
}
