import Testing
@testable import OpsMonitor

@Suite struct MonitorTallyTests {
    @Test func nothingIsCollectedBeforeTheTallyStarts() {
        var store = MonitorStore()
        let id = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .zero)
        store.transition(id, to: .finished, outcome: .succeeded, time: .seconds(1))
        #expect(store.takeTally() == nil)
    }

    @Test func finishesCarryWaitAndDurationOnTheStoreClock() throws {
        var store = MonitorStore()
        store.startTally()
        let ran = store.add(
            name: "ran", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .seconds(1))
        let never = store.add(
            name: "never", kind: .process, lifecycle: .waiting, totalBytes: 0, dependencies: [ran], time: .seconds(1))
        store.transition(ran, to: .executing, time: .seconds(3))
        store.transition(ran, to: .finished, outcome: .failed, message: "boom", time: .milliseconds(7_500))
        store.transition(never, to: .finished, outcome: .cancelled, time: .seconds(8))
        let taken = store.takeTally()
        let tally = try #require(taken)
        #expect(
            tally.finished == [
                FinishedTiming(outcome: .failed, wait: .seconds(2), duration: .milliseconds(4_500)),
                FinishedTiming(outcome: .cancelled, wait: nil, duration: nil),
            ])
        #expect(tally.counts == StateCounts(failed: 1, cancelled: 1))
        let again = store.takeTally()
        #expect(again?.finished.isEmpty == true, "timings are handed over once")
    }

    @Test func bytesAreCountedByDirectionAndNeverGoBack() throws {
        var store = MonitorStore()
        store.startTally()
        let down = store.add(
            name: "d", kind: .download, lifecycle: .executing, totalBytes: 100, dependencies: [], time: .zero)
        let up = store.add(
            name: "u", kind: .upload, lifecycle: .executing, totalBytes: 50, dependencies: [], time: .zero)
        let work = store.add(
            name: "p", kind: .process, lifecycle: .executing, totalBytes: 9, dependencies: [], time: .zero)
        store.progress(down, completedBytes: 40, bytesPerSecond: 1, retries: 0, time: .seconds(1))
        store.progress(down, completedBytes: 10, bytesPerSecond: 1, retries: 1, time: .seconds(2))  // a retry restarts
        store.progress(down, completedBytes: 30, bytesPerSecond: 1, retries: 1, time: .seconds(3))
        store.progress(up, completedBytes: 20, bytesPerSecond: 1, retries: 0, time: .seconds(1))
        store.progress(work, completedBytes: 9, bytesPerSecond: 1, retries: 0, time: .seconds(1))
        store.transition(up, to: .finished, outcome: .succeeded, time: .seconds(4))  // the rest counts as sent
        let taken = store.takeTally()
        let tally = try #require(taken)
        #expect(tally.downloadedBytes == 60)
        #expect(tally.uploadedBytes == 50)
    }

    @Test func timingsPastTheLimitAreCountedAsDropped() {
        var tally = MonitorTally()
        tally.finished.reserveCapacity(MonitorTally.timingLimit)
        for _ in 0..<(MonitorTally.timingLimit + 3) {
            tally.recordFinish(FinishedTiming(outcome: .succeeded, wait: nil, duration: nil))
        }
        #expect(tally.finished.count == MonitorTally.timingLimit)
        #expect(tally.droppedTimings == 3)
    }
}
