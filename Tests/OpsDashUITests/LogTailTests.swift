import OpsMonitor
import Testing

@testable import OpsDashUI

/// The log pane reads only the log's tail: its newest lines are those of the whole log, with
/// repeats and limit-change chains that cross where the tail starts (a seeded random log of
/// state changes, repeated commands and limit changes, shown 1 to 12 lines at a time).
@Suite struct LogTailTests {
    @Test func theTailsLinesAreTheWholeLogsLines() {
        var generator = SplitMix(seed: 2026)
        for round in 0..<300 {
            let log = Self.randomLog(count: Int(generator.next() % 400), &generator)
            for limit in [1, 3, 7, 12] {
                let whole = Array(LogLine.lines(log).suffix(limit))
                let tail = LogLine.last(limit, of: log)
                #expect(tail.map(\.entry.text) == whole.map(\.entry.text), "round \(round), limit \(limit)")
                #expect(tail.map(\.repeats) == whole.map(\.repeats), "round \(round), limit \(limit)")
            }
        }
    }

    @Test func aTailOfStateChangesAfterAnyEntriesIsTheWholeLogsLines() {
        // The newest `limit` entries all state changes take a shortcut: logs ending in 0 to
        // `limit + 1` state changes after a random log (repeats and limit chains included),
        // read as an array and as the monitor's shared log.
        var generator = SplitMix(seed: 28)
        for round in 0..<200 {
            var log = Self.randomLog(count: Int(generator.next() % 40), &generator)
            let limit = [1, 3, 7, 12][round % 4]
            let tail = Int(generator.next() % UInt64(limit + 2))
            for index in 0..<tail {
                let id = Int(generator.next() % 3)
                log.append(
                    LogEntry(
                        time: .seconds(Int64(1_000 + index)), kind: .state, operationID: id,
                        text: "op-\(id): ready → running"))
            }
            let whole = Array(LogLine.lines(log).suffix(limit))
            for lines in [LogLine.last(limit, of: log), LogLine.last(limit, of: SharedLog(log))] {
                #expect(lines.map(\.entry) == whole.map(\.entry), "round \(round), limit \(limit), tail \(tail)")
                #expect(lines.map(\.repeats) == whole.map(\.repeats), "round \(round), limit \(limit), tail \(tail)")
            }
        }
    }

    @Test func aLongLimitChainEndingTheLogIsOneLineFromItsFirstValue() {
        let log = (0..<200).map {
            LogEntry(time: .seconds(Int64($0)), kind: .queue, text: "concurrency limit \($0)→\($0 + 1)")
        }
        #expect(LogLine.last(3, of: log).map(\.entry.text) == ["concurrency limit 0→200"])
    }

    @Test func distinctEntriesAreReadOnlyAsFarBackAsTheLinesShown() {
        // A busy log is state changes, none repeating: `limit` entries make `limit` lines, and
        // the read checks the entry before the first for a line start (two reads).
        let log = CountingLog(
            entries: (0..<500).map {
                LogEntry(time: .seconds(Int64($0)), kind: .state, operationID: $0, text: "op-\($0): ready → running")
            })
        for limit in [1, 8, 20] {
            log.reads.reset()
            let lines = LogLine.last(limit, of: log)
            #expect(lines.map(\.entry.operationID) == (500 - limit..<500).map { $0 })
            #expect(log.reads.count <= limit + 2, "limit \(limit): \(log.reads.count) entries read")
        }
    }

    private static func randomLog(count: Int, _ generator: inout SplitMix) -> [LogEntry] {
        var log: [LogEntry] = []
        var limit = 4
        for index in 0..<count {
            let time = Duration.seconds(Int64(index))
            switch generator.next() % 6 {
            case 0, 1:
                let id = Int(generator.next() % 5)
                log.append(LogEntry(time: time, kind: .state, operationID: id, text: "op-\(id): ready → running"))
            case 2:
                log.append(LogEntry(time: time, kind: .action, text: "operator paused the queue"))
            case 3, 4:
                let next = max(1, limit + (generator.next() % 2 == 0 ? 1 : -1))
                let kind: LogEntry.Kind = generator.next() % 3 == 0 ? .action : .queue
                log.append(LogEntry(time: time, kind: kind, text: "concurrency limit \(limit)→\(next)"))
                limit = next
            default:
                log.append(LogEntry(time: time, kind: .retry, operationID: 1, text: "retrying #1"))
            }
        }
        return log
    }
}

/// A log that counts the entries read from it.
private struct CountingLog: RandomAccessCollection {
    /// Entries read so far (a class, so the collection's reads count through its copies).
    final class Reads {
        var count = 0
        func reset() { count = 0 }
    }

    let entries: [LogEntry]
    let reads = Reads()
    var startIndex: Int { entries.startIndex }
    var endIndex: Int { entries.endIndex }
    subscript(position: Int) -> LogEntry {
        reads.count += 1
        return entries[position]
    }
}

/// A small seeded generator (SplitMix64), so a failing round can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
