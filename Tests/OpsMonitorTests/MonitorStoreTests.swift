import Testing
@testable import OpsMonitor

@Suite struct MonitorStoreTests {
    @Test func countsFollowEveryTransitionAndOutcome() {
        var store = MonitorStore()
        let a = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: .zero)
        let b = store.add(name: "b", kind: .upload, lifecycle: .waiting, totalBytes: 50, dependencies: [a], time: .zero)
        #expect(store.counts == StateCounts(waiting: 1, ready: 1))
        store.transition(a, to: .executing, time: .seconds(1))
        store.progress(a, completedBytes: 40, bytesPerSecond: 40, retries: 0, time: .seconds(2))
        #expect(store.counts == StateCounts(waiting: 1, executing: 1))
        #expect(store.completedBytes == 40)
        #expect(store.bytesPerSecond(at: .seconds(2)) == 20, "40 bytes in the first two seconds")
        store.transition(a, to: .finished, outcome: .succeeded, time: .seconds(3))
        store.transition(b, to: .ready, time: .seconds(3))
        store.transition(b, to: .finished, outcome: .cancelled, message: "by operator", time: .seconds(4))
        #expect(store.counts == StateCounts(succeeded: 1, cancelled: 1))
        #expect(store.completedBytes == 100, "a success counts all its bytes")
        #expect(store.totalBytes == 150)
        #expect(store.bytesPerSecond(at: .seconds(10)) == 0, "nothing moved in the last two seconds")
        #expect(store.operation(id: b)?.message == "by operator")
        #expect(store.operation(id: b)?.history.map(\.lifecycle) == [.waiting, .ready, .finished])
    }

    @Test func finishedIsFinalAndProgressAfterFinishIsIgnored() {
        var store = MonitorStore()
        let a = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: .zero)
        store.transition(a, to: .executing, time: .zero)
        store.transition(a, to: .finished, outcome: .cancelled, time: .seconds(1))
        store.progress(a, completedBytes: 90, bytesPerSecond: 10, retries: 0, time: .seconds(2))
        store.transition(a, to: .executing, time: .seconds(2))
        #expect(store.operation(id: a)?.lifecycle == .finished)
        #expect(store.operation(id: a)?.completedUnits == 0)
        #expect(store.counts == StateCounts(cancelled: 1))
    }

    @Test func evictsOldestFinishedOperationsPastTheBoundAndCountsThem() {
        var store = MonitorStore(limits: .init(finishedOperations: 100))
        var ids: [Int] = []
        for index in 0..<1_000 {
            let id = store.add(
                name: "op\(index)", kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
            ids.append(id)
            if index % 10 != 0 {  // every tenth stays unfinished
                store.transition(id, to: .finished, outcome: .succeeded, time: .zero)
            }
        }
        let finishedKept = store.operations.filter { $0.lifecycle == .finished }.count
        #expect(finishedKept <= 100 + 64)
        #expect(finishedKept >= 100)
        #expect(store.evictedCount == 900 - finishedKept)
        #expect(store.operations.filter { $0.lifecycle == .ready }.count == 100, "unfinished are never evicted")
        #expect(store.counts.succeeded == 900, "counts include evicted operations")
        #expect(store.operations.map(\.id) == store.operations.map(\.id).sorted())
        let kept = store.operations[store.operations.count - 1]
        #expect(store.operation(id: kept.id) == kept, "positions are rebuilt after eviction")
    }

    @Test func recordsEventsInApplyOrderOnlyWhenAsked() {
        var quiet = MonitorStore()
        _ = quiet.add(name: "a", kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        #expect(quiet.drainEvents().isEmpty)

        var store = MonitorStore()
        store.recordsEvents = true
        let a = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .zero)
        store.transition(a, to: .executing, time: .seconds(1))
        store.progress(a, completedBytes: 5, bytesPerSecond: 5, retries: 0, time: .seconds(2))
        store.queueChanged(isSuspended: true, reason: "queue paused", time: .seconds(3))
        store.transition(a, to: .finished, outcome: .succeeded, time: .seconds(4))
        let events = store.drainEvents()
        #expect(
            events == [
                .added(time: .zero, id: a, name: "a", kind: .download, totalBytes: 10, dependencies: []),
                .state(time: .zero, id: a, from: nil, to: .ready, outcome: nil, message: nil),
                .state(time: .seconds(1), id: a, from: .ready, to: .executing, outcome: nil, message: nil),
                .progress(time: .seconds(2), id: a, completedBytes: 5, totalBytes: 10, bytesPerSecond: 5, retries: 0),
                .queue(
                    time: .seconds(3), isSuspended: true, maxConcurrentOperationCount: 1,
                    counts: StateCounts(executing: 1), reason: "queue paused"),
                .state(time: .seconds(4), id: a, from: .executing, to: .finished, outcome: .succeeded, message: nil),
            ])
        #expect(store.drainEvents().isEmpty)
    }

    @Test func logIsBoundedAndKeepsTheNewest() {
        var store = MonitorStore(limits: .init(logEntries: 5))
        for index in 0..<20 { store.queueChanged(reason: "action \(index)", time: .seconds(index)) }
        #expect(store.log.map(\.text) == (15..<20).map { "action \($0)" })
    }

    @Test func snapshotCopiesShareStorageAndStayImmutable() {
        var store = MonitorStore()
        let a = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .zero)
        let before = store.snapshot(time: .zero)
        store.transition(a, to: .executing, time: .seconds(1))
        #expect(before.operations[0].lifecycle == .ready)
        #expect(store.snapshot(time: .zero).operations[0].lifecycle == .executing)
        #expect(before.version < store.version)
    }
}

/// A progress report with the values already shown changes nothing and makes no event (the
/// monitor applies an operation's last progress again when it finishes).
@Suite struct RepeatedProgressTests {
    @Test func theSameProgressAgainMakesNoEvent() {
        var store = MonitorStore()
        store.recordsEvents = true
        let id = store.add(
            name: "a", kind: .download, lifecycle: .executing, totalBytes: 100, dependencies: [], time: .zero)
        _ = store.drainEvents()
        store.progress(id, completedBytes: 40, bytesPerSecond: 0, retries: 0, time: .seconds(1))
        let version = store.version
        store.progress(id, completedBytes: 40, totalBytes: 100, bytesPerSecond: 0, retries: 0, time: .seconds(2))
        #expect(store.drainEvents().count == 1)
        #expect(store.version == version, "nothing changed, so the dashboard has nothing to redraw")
        store.progress(id, completedBytes: 40, bytesPerSecond: 5, retries: 0, time: .seconds(3))
        #expect(store.drainEvents().count == 1, "a new rate is a change")
    }
}
