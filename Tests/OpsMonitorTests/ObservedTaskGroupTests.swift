import Foundation
import OpsKit
import OpsKitTesting
import OpsMonitor
import Testing

/// `withObservedTaskGroup`: children run as operations on a monitored queue, so the dashboard's
/// controls (here called on the `QueueMonitor`, as the dashboard and `opsdash attach` do) act
/// on them. Every wait is on an event the children record, never on wall time; the waits allow
/// 60 s because a child is a Swift `Task`, and in the full parallel test run the cooperative
/// pool it needs can be held by other tests for seconds.
@Suite struct ObservedTaskGroupTests {
    @Test func noMoreChildrenRunThanTheQueueAllows() async throws {
        let (queue, _) = watchedQueue(width: 2)
        let probe = ChildProbe()
        let gates = Gates(6)
        let results = try await withObservedTaskGroup(of: Int.self, on: queue) { group in
            for index in 0..<6 { group.addTask(name: "child-\(index)", operation: gated(index, probe, gates)) }
            // Opens the oldest running child's gate each time two run, so that the next can start.
            for opened in 0..<6 {
                #expect(await eventually(timeout: .seconds(60)) { probe.began.count == min(opened + 2, 6) })
                gates.open(probe.began[opened])
            }
            var results: [Int] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.sorted() == Array(0..<6))
        #expect(probe.peak == 2, "two at once, never more")
    }

    @Test func pauseHoldsChildrenAndResumeStartsThem() async throws {
        let (queue, monitor) = watchedQueue(width: 2)
        let probe = ChildProbe()
        let gates = Gates(2)
        monitor.setSuspended(true)
        try await withObservedTaskGroup(of: Int.self, on: queue) { group in
            for index in 0..<2 { group.addTask(name: "child-\(index)", operation: gated(index, probe, gates)) }
            #expect(await eventually(timeout: .seconds(60)) { monitor.snapshot().counts.ready == 2 })
            #expect(probe.began.isEmpty, "held while paused")
            monitor.setSuspended(false)
            #expect(await eventually(timeout: .seconds(60)) { probe.began.count == 2 })
            gates.openAll()
            try await group.waitForAll()
        }
    }

    @Test func aNewWidthAppliesToChildrenAlreadyWaiting() async throws {
        let (queue, monitor) = watchedQueue(width: 1)
        let probe = ChildProbe()
        let gates = Gates(3)
        try await withObservedTaskGroup(of: Int.self, on: queue) { group in
            for index in 0..<3 { group.addTask(name: "child-\(index)", operation: gated(index, probe, gates)) }
            #expect(await eventually(timeout: .seconds(60)) { probe.began.count == 1 })
            monitor.setMaxConcurrentOperationCount(3)  // the dashboard's `+`
            #expect(await eventually(timeout: .seconds(60)) { probe.began.count == 3 })
            gates.openAll()
            try await group.waitForAll()
        }
        #expect(probe.peak == 3)
    }

    @Test func cancellingOneRowCancelsExactlyThatChildsTask() async throws {
        let (queue, monitor) = watchedQueue(width: 3)
        let probe = ChildProbe()
        let gates = Gates(3)
        let outcomes = try await withObservedTaskGroup(of: Int.self, on: queue) { group in
            for index in 0..<3 { group.addTask(name: "child-\(index)", operation: gated(index, probe, gates)) }
            #expect(await eventually(timeout: .seconds(60)) { probe.began.count == 3 })
            let row = try #require(monitor.snapshot().operations.first { $0.name == "child-1" })
            monitor.cancel(id: row.id)  // the dashboard's cancel key
            var outcomes: [String] = []
            let first = await group.nextResult()
            #expect(first.map { (try? $0.get()) == nil } == true, "child-1 ended first, with an error")
            if case .failure(let error) = first { outcomes.append("\(type(of: error))") }
            gates.openAll()
            while let outcome = await group.nextResult() { outcomes.append("\((try? outcome.get()) ?? -1)") }
            return outcomes
        }
        #expect(outcomes.first == "CancellationError")
        #expect(outcomes.dropFirst().sorted() == ["0", "2"], "the others ran to the end")
        #expect(probe.cancelled == [1], "only child-1's task saw a cancellation")
        #expect(await eventually(timeout: .seconds(60)) { monitor.snapshot().counts.finished == 3 })
        let rows = monitor.snapshot().operations
        #expect(rows.first { $0.name == "child-1" }?.outcome == .cancelled)
        #expect(rows.filter { $0.outcome == .succeeded }.map(\.name).sorted() == ["child-0", "child-2"])
    }

    /// The waiting child is cancelled before the running ones, whose cancel frees a slot it
    /// could otherwise start in (the order itself: TaskGroupCancelOrderTests, which needs no
    /// cooperative thread).
    @Test func cancellingTheCallingTaskCancelsEveryChild() async throws {
        let (queue, monitor) = watchedQueue(width: 2)
        let probe = ChildProbe()
        let gates = Gates(3)
        let caller = Task {
            try await withObservedTaskGroup(of: Int.self, on: queue) { group in
                for index in 0..<3 { group.addTask(name: "child-\(index)", operation: gated(index, probe, gates)) }
                return try await group.reduce(0, +)
            }
        }
        #expect(await eventually(timeout: .seconds(60)) { probe.began.count == 2 })
        caller.cancel()
        let result = await caller.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(probe.cancelled == [0, 1], "both running children saw it")
        #expect(probe.began.count == 2, "the waiting child never began")
        #expect(await eventually(timeout: .seconds(60)) { monitor.snapshot().counts.finished == 3 })
        #expect(monitor.snapshot().operations.allSatisfy { $0.outcome == .cancelled })
    }

    @Test func aCancelledCallerDoesNotWaitForChildrenAPausedQueueHolds() async throws {
        let (queue, monitor) = watchedQueue(width: 2)
        let probe = ChildProbe()
        let gates = Gates(2)
        monitor.setSuspended(true)
        let caller = Task {
            try await withObservedTaskGroup(of: Int.self, on: queue) { group in
                for index in 0..<2 { group.addTask(name: "child-\(index)", operation: gated(index, probe, gates)) }
                return try await group.reduce(0, +)
            }
        }
        #expect(await eventually(timeout: .seconds(60)) { monitor.snapshot().counts.ready == 2 })
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        monitor.setSuspended(false)
        #expect(await eventually(timeout: .seconds(60)) { monitor.snapshot().counts.finished == 2 })
        #expect(probe.began.isEmpty, "a cancelled child never runs")
    }

    @Test func aChildsErrorReachesTheCallerAndCancelsTheOthers() async throws {
        let (queue, _) = watchedQueue(width: 2)
        let probe = ChildProbe()
        let gates = Gates(2)
        await #expect(throws: ChildFailure.self) {
            try await withObservedTaskGroup(of: Int.self, on: queue) { group in
                group.addTask(name: "waits", operation: gated(0, probe, gates))
                #expect(await eventually(timeout: .seconds(60)) { probe.began == [0] })
                group.addTask(name: "fails") { _ in throw ChildFailure() }
                return try await group.reduce(0, +)
            }
        }
        #expect(probe.cancelled == [0], "the group cancelled the waiting child on the way out")
    }

    @Test func eachChildIsARowWithItsNameStateAndProgress() async throws {
        let (queue, monitor) = watchedQueue(width: 1)
        let gates = Gates(2)
        let reported = ChildProbe()
        try await withObservedTaskGroup(of: Void.self, on: queue) { group in
            group.addTask(name: "resize a.jpg") { progress in
                progress.report(completed: 3, total: 8)
                reported.enter(0)
                try await gates.wait(0)
            }
            group.addTask(name: "resize b.jpg", kind: .download, unit: .bytes) { _ in try await gates.wait(1) }
            #expect(await eventually(timeout: .seconds(60)) { reported.began == [0] })
            let rows = monitor.snapshot().operations
            #expect(rows.map(\.name) == ["resize a.jpg", "resize b.jpg"])
            #expect(rows.map(\.lifecycle) == [.executing, .ready])
            #expect(rows.map(\.kind) == [.process, .download])
            #expect(rows.map(\.unit) == [.items, .bytes])
            #expect(rows.first?.completedUnits == 3 && rows.first?.totalUnits == 8)
            gates.openAll()
            try await group.waitForAll()
        }
        #expect(await eventually(timeout: .seconds(60)) { monitor.snapshot().counts.finished == 2 })
    }
}

private struct ChildFailure: Error {}

/// A queue `width` wide, watched by a monitor.
private func watchedQueue(width: Int) -> (ObservableOperationQueue, QueueMonitor) {
    let queue = ObservableOperationQueue()
    queue.maxConcurrentOperationCount = width
    return (queue, QueueMonitor(queue: queue, clock: ManualClock()))
}

/// A child that records its start in `probe`, waits at gate `index` and returns `index`; a
/// cancelled one records that it saw its cancellation, and throws `CancellationError`.
private func gated(
    _ index: Int, _ probe: ChildProbe, _ gates: Gates
) -> @Sendable (ObservedTaskProgress) async throws -> Int {
    { _ in
        probe.enter(index)
        defer { probe.leave(index, cancelled: Task.isCancelled) }
        try await gates.wait(index)
        return index
    }
}

/// What the children did: which began (in order), how many ran at most at once, which saw
/// their task cancelled.
private final class ChildProbe: Sendable {
    private struct State {
        var began: [Int] = []
        var running = 0
        var peak = 0
        var cancelled: Set<Int> = []
    }
    private let state = OpsMutex(State())

    func enter(_ index: Int) {
        state.withLock { state in
            state.began.append(index)
            state.running += 1
            state.peak = max(state.peak, state.running)
        }
    }

    func leave(_ index: Int, cancelled: Bool) {
        state.withLock { state in
            state.running -= 1
            if cancelled { state.cancelled.insert(index) }
        }
    }

    var began: [Int] { state.withLock { $0.began } }
    var peak: Int { state.withLock { $0.peak } }
    var cancelled: Set<Int> { state.withLock { $0.cancelled } }
}

/// One gate per child: a child waits at its gate until the test opens it or its task is
/// cancelled (then it throws `CancellationError`).
private final class Gates: Sendable {
    private let gates: [(stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)]

    init(_ count: Int) {
        gates = (0..<count).map { _ in AsyncStream.makeStream(of: Void.self) }
    }

    func open(_ index: Int) { gates[index].continuation.finish() }

    func openAll() {
        for gate in gates { gate.continuation.finish() }
    }

    func wait(_ index: Int) async throws {
        for await _ in gates[index].stream {}
        try Task.checkCancellation()
    }
}
