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

    @Test func appendingAtABoundKeepsTheNewestEntries() {
        for limit in [1, 5, SharedLog.chunkSize - 1, SharedLog.chunkSize, SharedLog.chunkSize + 1, 100] {
            var log = SharedLog()
            var array: [LogEntry] = []
            for step in 0..<300 {
                log.append(entry(step), keeping: limit)
                array.append(entry(step))
                if array.count > limit { array.removeFirst() }
                #expect(log.count == array.count, "limit \(limit), step \(step)")
                #expect(Array(log) == array, "limit \(limit), step \(step)")
            }
        }
    }

    /// The scans the dashboard makes each frame (which entries are commands, where the entries
    /// from a time on start) read kinds and times in place and find what a walk over copies finds.
    @Test func scansInPlaceFindWhatAWalkOverTheEntriesFinds() {
        var log = SharedLog()
        var array: [LogEntry] = []
        let kinds: [LogEntry.Kind] = [.state, .queue, .state, .action, .retry, .state, .state]
        for step in 0..<200 {
            let added = LogEntry(time: .seconds(step / 3), kind: kinds[step % kinds.count], text: "\(step)")
            log.append(added, keeping: 90)
            array.append(added)
            if array.count > 90 { array.removeFirst() }
            let isCommand: (LogEntry.Kind) -> Bool = { $0 == .queue || $0 == .action }
            let commands = array.indices.filter { isCommand(array[$0].kind) }
            for limit in [0, 1, 3, 1_000] {
                #expect(log.lastPositions(limit, where: isCommand) == Array(commands.suffix(limit)))
            }
            for from in [0, 3, 7] where from <= array.count {
                let range = from..<array.count
                #expect(log.positions(in: range, where: isCommand) == commands.filter(range.contains))
            }
            for seconds in [-1, 0, step / 3 - 20, step / 3 - 1, step / 3, step / 3 + 1] {
                var start = array.count
                while start > 0, array[start - 1].time >= .seconds(seconds) { start -= 1 }
                #expect(log.startOfTail(from: .seconds(seconds)) == start, "step \(step), from \(seconds) s")
            }
        }
    }

    @Test func aCopyIsTheSameStorageUntilEitherChanges() {
        var log = SharedLog((0..<40).map(entry))
        var copy = log
        #expect(copy.isSameStorage(as: log))
        log.append(entry(40), keeping: 40)
        #expect(!copy.isSameStorage(as: log))
        copy = log
        #expect(copy.isSameStorage(as: log))
        #expect(!SharedLog((0..<40).map(entry)).isSameStorage(as: SharedLog((0..<40).map(entry))))
    }
}
