import Foundation
import Testing

/// Runs each test on a thread of its own instead of a cooperative thread.
///
/// Swift Testing calls test functions on the cooperative pool, which has one thread per core
/// (two on CI). A synchronous test that blocks (waits for a process, polls a tmux screen, sleeps
/// in the synchronous `eventually`) holds one of them for as long as it runs, and two such tests
/// leave every `Task` in the process, including the ones other tests wait for, without a thread.
/// With this trait the test body runs as the same task (its task-locals, and so its expectations,
/// stay the test's) under a task executor preference for a thread made for that test alone.
/// At most as many such tests run at once as the machine has cores (a test waits for its turn
/// without holding a thread), as before, when the pool's threads were what limited them. Apply it to suites whose tests block: `@Suite(.ownThread)`.
package struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    private static let slots = TestSlots(count: ProcessInfo.processInfo.activeProcessorCount)

    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope stays on the pool: its tests are each given a thread below.
        guard testCase != nil else { return try await function() }
        // A time limit counts from before this scope, so a test with one doesn't queue for a slot
        // (those are short tests that check something ends at once).
        let queues = test.timeLimit == nil
        if queues { await Self.slots.take() }
        defer { if queues { Self.slots.give() } }
        let executor = DedicatedThreadExecutor(name: "test: \(test.name)")
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test runs on a thread of its own (see ``OwnThreadTrait``).
    package static var ownThread: Self { OwnThreadTrait() }
}
