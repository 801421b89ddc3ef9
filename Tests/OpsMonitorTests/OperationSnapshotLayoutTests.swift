import OpsKit
import Testing
@testable import OpsMonitor

/// A store keeps one `OperationSnapshot` per operation (issue #28 goal 5): its row stays small,
/// its times read back to the nanosecond, and its history reads and compares the same however
/// it is held (one change inline, more in an array).
@Suite struct OperationSnapshotLayoutTests {
    @Test func aRowAndAStateChangeStaySmall() {
        // 176 and 24 bytes with the times as `Duration`s and the one-byte fields between the
        // others; 144 with the message, dependencies and retry log held in the row.
        #expect(MemoryLayout<OperationSnapshot>.stride <= 120)
        #expect(MemoryLayout<StateChange>.stride <= 16)
    }

    /// The message, dependencies and retry log share one reference, nil while all are empty,
    /// and each reads back what was set however the others change.
    @Test func theRarelySetFieldsReadBackAndEmptyOnesHoldNothing() {
        var op = OperationSnapshot(id: 1, name: "a")
        #expect(op.message == nil && op.dependencies.isEmpty && op.retryLog.isEmpty)
        op.dependencies = [3, 4]
        op.message = "failed"
        op.retryLog = ["attempt 1 failed"]
        let copy = op
        op.dependencies.append(5)
        #expect(op.dependencies == [3, 4, 5] && op.message == "failed" && op.retryLog == ["attempt 1 failed"])
        #expect(copy.dependencies == [3, 4], "a copy keeps what it had")
        let held = op.extras
        op.message = "failed"
        op.dependencies = [3, 4, 5]
        #expect(op.extras === held, "setting what a field holds keeps the extras, allocates none")
        op.message = nil
        op.dependencies = []
        op.retryLog = []
        #expect(op == OperationSnapshot(id: 1, name: "a"))
        #expect(
            OperationSnapshot(id: 2, name: "b", message: "m", dependencies: [1], retryLog: ["r"])
                == { () -> OperationSnapshot in
                    var built = OperationSnapshot(id: 2, name: "b")
                    built.retryLog = ["r"]
                    built.dependencies = [1]
                    built.message = "m"
                    return built
                }())
    }

    @Test func timesReadBackToTheNanosecondAndNilStaysNil() {
        var op = OperationSnapshot(
            id: 1, name: "a", addedAt: .nanoseconds(1_500_000_001), startedAt: .seconds(2), finishedAt: nil)
        #expect(op.addedAt == .nanoseconds(1_500_000_001))
        #expect(op.startedAt == .seconds(2))
        #expect(op.finishedAt == nil)
        op.finishedAt = .zero
        #expect(op.finishedAt == .zero)
        op.startedAt = nil
        #expect(op.startedAt == nil)
        #expect(StateChange(time: .nanoseconds(-7), lifecycle: .ready).time == .nanoseconds(-7))
    }

    @Test func appendingKeepsTheFirstAndTheNewestPastTheLimit() {
        var op = OperationSnapshot(id: 1, name: "a")
        let changes = (0..<5).map { StateChange(time: .seconds($0), lifecycle: $0 == 0 ? .ready : .executing) }
        op.appendChange(changes[0], keeping: 3)
        #expect(op.history == [changes[0]])
        op.appendChange(changes[1], keeping: 3)
        #expect(op.history == [changes[0], changes[1]])
        op.appendChange(changes[2], keeping: 3)
        op.appendChange(changes[3], keeping: 3)
        #expect(op.history == [changes[0], changes[2], changes[3]])
        op.appendChange(changes[4], keeping: 3)
        #expect(op.history == [changes[0], changes[3], changes[4]])
    }

    @Test func aHistoryComparesTheSameHoweverItWasBuilt() {
        let added = StateChange(time: .zero, lifecycle: .ready)
        let started = StateChange(time: .seconds(1), lifecycle: .executing)
        var appended = OperationSnapshot(id: 1, name: "a")
        appended.appendChange(added, keeping: 16)
        #expect(appended == OperationSnapshot(id: 1, name: "a", history: [added]))
        appended.appendChange(started, keeping: 16)
        #expect(appended == OperationSnapshot(id: 1, name: "a", history: [added, started]))
        var assigned = OperationSnapshot(id: 1, name: "a", history: [added, started])
        assigned.history = [added]
        #expect(assigned == OperationSnapshot(id: 1, name: "a", history: [added]))
        assigned.history = []
        #expect(assigned.history.isEmpty)
        #expect(assigned == OperationSnapshot(id: 1, name: "a"))
    }
}
