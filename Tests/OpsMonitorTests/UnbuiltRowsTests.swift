import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// A monitor applying a backlog counts the operations whose rows nobody could read without
/// building them (`UnbuiltTickets`): once applied, its picture reads as one that built every
/// row (counts, log, history, timings, version, a metrics tally), but for the finished rows
/// older than the newest `finishedOperations`, which either may have evicted.
@Suite(.ownThread) struct UnbuiltRowsTests {
    private static let limits = MonitorStore.Limits(finishedOperations: 30, logEntries: 8)

    /// A monitor of an idle queue, told of changes only by the test, applying only when read.
    private struct Watch {
        let queue = ObservableOperationQueue()
        let clock = ManualClock()
        let monitor: QueueMonitor

        init(buildsEveryRow: Bool, limits: MonitorStore.Limits) {
            queue.isSuspended = true
            monitor = QueueMonitor(queue: queue, clock: clock, limits: limits)
            monitor.recorder.disableBackgroundApplier()
            monitor.state.withLock { $0.countsUnreadOperationsWithoutRows = !buildsEveryRow }
            monitor.startTally()
        }
    }

    /// One step of a script, told to both monitors alike.
    private enum Step {
        case add([Operation], tickets: [UInt64])
        case ready(UInt64)
        case start(Operation, UInt64)
        case finish(Operation, UInt64)
        case read
    }

    /// Random batches of adds (async operations, some waiting on an earlier one, some cancelled,
    /// a few `BlockOperation`s), readiness, starts and finishes mostly in order, and reads that
    /// end a backlog at random places.
    private static func script(seed: UInt64) -> [Step] {
        var random = SeededGenerator(seed: seed)
        var steps: [Step] = []
        var nextTicket: UInt64 = 1_000
        var unstarted: [(Operation, UInt64, waiting: Bool)] = []
        var running: [(Operation, UInt64)] = []
        var added: [Operation] = []
        for _ in 0..<1_500 {
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 12 {
                var batch: [Operation] = []
                var tickets: [UInt64] = []
                for _ in 0..<Int.random(in: 1...7, using: &random) {
                    let op: Operation =
                        Int.random(in: 0..<20, using: &random) == 0 ? BlockOperation {} : ClosureOperation {}
                    var waiting = false
                    if let dependency = added.last, !dependency.isFinished, Int.random(in: 0..<6, using: &random) == 0 {
                        op.addDependency(dependency)
                        waiting = true
                    }
                    if Int.random(in: 0..<10, using: &random) == 0 { op.cancel() }
                    batch.append(op)
                    tickets.append(nextTicket)
                    unstarted.append((op, nextTicket, waiting))
                    nextTicket += 1
                }
                added += batch
                steps.append(.add(batch, tickets: tickets))
            } else if roll == 12, Bool.random(using: &random) {
                steps.append(.read)
            } else if roll < 57, !unstarted.isEmpty {
                let index =
                    Int.random(in: 0..<100, using: &random) < 80
                    ? 0 : Int.random(in: 0..<unstarted.count, using: &random)
                let (op, ticket, waiting) = unstarted.remove(at: index)
                if waiting { steps.append(.ready(ticket)) }
                steps.append(.start(op, ticket))
                running.append((op, ticket))
            } else if !running.isEmpty {
                let index =
                    Int.random(in: 0..<100, using: &random) < 80 ? 0 : Int.random(in: 0..<running.count, using: &random)
                let (op, ticket) = running.remove(at: index)
                steps.append(.finish(op, ticket))
            }
        }
        return steps + [.read]
    }

    private static func tell(_ step: Step, to watch: Watch) {
        let recorder = watch.monitor.recorder
        switch step {
        case .add(let ops, let tickets): recorder.operationsAdded(ops, tickets: tickets)
        case .ready(let ticket): recorder.record(.ready(ticket: ticket, time: recorder.now))
        case .start(let op, let ticket): recorder.operationStarted(op, ticket: ticket)
        case .finish(let op, let ticket): recorder.operationFinished(op, ticket: ticket)
        case .read: break
        }
        watch.clock.advance(by: .milliseconds(7))
    }

    /// Limits where eviction decides (more rows kept than log entries), and where the log does.
    @Test(arguments: [1, 2, 3, 4] as [UInt64], [limits, MonitorStore.Limits(finishedOperations: 5, logEntries: 40)])
    func aBacklogCountedWithoutUnreadRowsReadsAsOneThatBuiltThemAll(seed: UInt64, limits: MonitorStore.Limits) {
        let reference = Watch(buildsEveryRow: true, limits: limits)
        let candidate = Watch(buildsEveryRow: false, limits: limits)
        var rowsNotBuilt = 0
        var reads = 0
        for step in Self.script(seed: seed) {
            Self.tell(step, to: reference)
            Self.tell(step, to: candidate)
            guard case .read = step else { continue }
            reads += 1
            // The candidate's backlog is looked over as it is taken (the read applies it).
            let monitor = candidate.monitor
            rowsNotBuilt += monitor.state.withLock { state in
                monitor.takeInbox(into: &state)
                return (UInt64(1_000)..<20_000).count { state.unbuiltTickets.contains($0) }
            }
            let built = reference.monitor.snapshot()
            let counted = candidate.monitor.snapshot()
            #expect(counted.counts == built.counts, "read \(reads)")
            #expect(counted.log == built.log, "read \(reads)")
            #expect(counted.history == built.history, "read \(reads)")
            #expect(counted.recentTimings == built.recentTimings, "read \(reads)")
            #expect(counted.version == built.version, "read \(reads)")
            #expect(candidate.monitor.takeTally() == reference.monitor.takeTally(), "finish timings, read \(reads)")
            #expect(counted.drainedAt == built.drainedAt && counted.completedBytes == built.completedBytes)
            // Unfinished rows all held; finished rows, the newest `finishedOperations` alike.
            let unfinished = { (picture: QueueSnapshot) in
                Array(picture.operations).filter { $0.lifecycle != .finished }
            }
            let newestFinished = { (picture: QueueSnapshot) in
                Array(Array(picture.operations).filter { $0.lifecycle == .finished }.suffix(limits.finishedOperations))
            }
            #expect(unfinished(counted) == unfinished(built), "read \(reads)")
            #expect(newestFinished(counted) == newestFinished(built), "read \(reads)")
            #expect(
                counted.operations.count + counted.evictedCount == built.operations.count + built.evictedCount,
                "every operation held or counted as evicted")
        }
        #expect(rowsNotBuilt > 0, "the script's backlogs leave rows unbuilt")
    }

    @Test func aDrainNobodyReadMidwayBuildsOnlyTheRowsItKeeps() {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: ManualClock(), limits: Self.limits)
        monitor.recorder.disableBackgroundApplier()
        let count = 2_000
        queue.addOperations((0..<count).map { _ in ClosureOperation {} }, waitUntilFinished: false)
        queue.waitUntilAllOperationsAreFinished()
        let snapshot = monitor.snapshot()
        #expect(snapshot.counts.succeeded == count)
        // The newest `finishedOperations` rows, and those whose finish came among the last
        // `logEntries` (two workers finish out of order).
        #expect(snapshot.operations.count >= Self.limits.finishedOperations)
        #expect(snapshot.operations.count <= Self.limits.finishedOperations + Self.limits.logEntries)
        #expect(snapshot.operations.count + snapshot.evictedCount == count)
        #expect(snapshot.log.count == Self.limits.logEntries)
        let held = Set(snapshot.operations.map(\.id))
        #expect(snapshot.log.allSatisfy { $0.operationID.map(held.contains) ?? true }, "the log names held rows")
    }

    @Test func onlyOperationsAddedAndFinishedWithEnoughAfterThemAreLeftUnbuilt() {
        var steps = BacklogSteps()
        let tickets: [UInt64] = Array(10..<20)
        steps.add(tickets)
        // 10…17 finish in order, then 5 (added earlier); 18 and 19 never finish here.
        for ticket in tickets.prefix(8) { steps.finish(ticket) }
        steps.finish(5)
        let table = UnbuiltTickets(steps, finishedOperations: 3, logEntries: 2)
        // 10…14 have at least 3 later-added finishes (and 3 or more finishes after theirs).
        #expect((0..<25).filter { table.contains(UInt64($0)) } == [10, 11, 12, 13, 14])
        let tight = UnbuiltTickets(steps, finishedOperations: 3, logEntries: 6)
        #expect((0..<25).filter { tight.contains(UInt64($0)) } == [10, 11])
        // No more finishes than a limit: nothing is looked for.
        let few = UnbuiltTickets(steps, finishedOperations: 9, logEntries: 2)
        #expect(!(0..<25).contains { few.contains(UInt64($0)) })
        // Looked for over the backlog and the take together: the adds in the backlog.
        var backlog = BacklogSteps()
        backlog.add(tickets)
        var taken = BacklogSteps()
        for ticket in tickets.prefix(8) { taken.finish(ticket) }
        backlog.append(taken)
        let joined = UnbuiltTickets(backlog, finishedOperations: 3, logEntries: 2)
        #expect((0..<25).filter { joined.contains(UInt64($0)) } == [10, 11, 12, 13, 14])
        #expect(!UnbuiltTickets().contains(10))
    }

    @Test func theRecorderListsWhatItsChangesAddAndFinish() {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: ManualClock(), limits: Self.limits)
        monitor.recorder.disableBackgroundApplier()
        defer { monitor.stop() }
        let recorder = monitor.recorder
        let ops = (0..<3).map { _ in ClosureOperation {} }
        recorder.operationsAdded(ops, tickets: [7, 8, 9])
        recorder.operationStarted(ops[1], ticket: 8)
        recorder.operationFinished(ops[1], ticket: 8)
        recorder.operationFinished(ops[0], ticket: 7)
        let steps = recorder.inbox.withLock { $0.steps }
        #expect(steps.adds == [7, 8, 9])
        #expect(steps.finishes == [8, 7])
        // A take moves them to the backlog's list.
        monitor.state.withLock { state in monitor.takeInbox(into: &state) }
        #expect(recorder.inbox.withLock { $0.steps.adds.isEmpty })
        #expect(monitor.state.withLock { $0.backlogSteps.finishes } == [8, 7])
    }
}
