import Testing
@testable import OpsMonitor

/// The event log kept in shared chunks reads like an array through appends and drops from the
/// front, and a picture handed out keeps its entries whatever the store does after.
@Suite struct SharedLogTests {
    private func entry(_ number: Int) -> LogEntry {
        LogEntry(time: .seconds(number), kind: .action, text: "action \(number)")
    }

    @Test func appendsAndDropsLikeAnArray() {
        var log = SharedLog()
        var array: [LogEntry] = []
        // Sizes around the chunk size, drops of every length, including all of it.
        for step in 0..<300 {
            log.append(entry(step))
            array.append(entry(step))
            if step % 7 == 3 {
                let drop = (step * 5) % (SharedLog.chunkSize + 9)
                log.removeFirst(drop)
                array.removeFirst(min(drop, array.count))
            }
            #expect(log.count == array.count)
            #expect(Array(log) == array)
        }
        log.removeFirst(log.count + 1)
        #expect(log.isEmpty)
        log.append(entry(1))
        #expect(Array(log) == [entry(1)])
    }

    @Test func aCopyKeepsItsEntriesWhileTheOriginalChanges() {
        var log = SharedLog((0..<70).map(entry))
        let copy = log
        for number in 70..<140 { log.append(entry(number)) }
        log.removeFirst(90)
        #expect(Array(copy) == (0..<70).map(entry))
        #expect(Array(log) == (90..<140).map(entry))
    }

    @Test func aSnapshotKeepsTheLogItWasTakenWith() {
        var store = MonitorStore(limits: .init(logEntries: 40))
        for number in 0..<50 { store.appendLog(entry(number)) }
        let before = store.snapshot(time: .seconds(1))
        for number in 50..<100 { store.appendLog(entry(number)) }
        let after = store.snapshot(time: .seconds(2))
        #expect(before.log == (10..<50).map(entry))
        #expect(after.log == (60..<100).map(entry))
        #expect(Array(after.sharedLog) == after.log)
    }
}
