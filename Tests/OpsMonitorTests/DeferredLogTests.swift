import OpsKit
import Testing
@testable import OpsMonitor

/// A monitor applying a backlog builds only the log entries the backlog's end still shows
/// (`DeferredLog`): whatever the changes, once a backlog is applied the store reads exactly as
/// one that built every entry as it came (its log, rows, counts and evictions).
@Suite struct DeferredLogTests {
    /// A change made the same way to both stores.
    private enum Change {
        case add(id: Int, name: String?, byClass: Bool, lifecycle: Lifecycle)
        case transition(id: Int, to: Lifecycle, outcome: Outcome?, message: String?)
        case progress(id: Int, completed: Int64, retries: Int)
        case action(String)

        func apply(to store: inout MonitorStore, time: Duration) {
            switch self {
            case .add(let id, let name, let byClass, let lifecycle):
                store.insert(
                    id: id, name: name, nameAddsID: byClass, kind: .other, lifecycle: lifecycle, totalBytes: 10,
                    dependencies: [], time: time)
            case .transition(let id, let to, let outcome, let message):
                store.transition(id, to: to, outcome: outcome, message: message, time: time)
            case .progress(let id, let completed, let retries):
                store.progress(
                    id, completedBytes: completed, bytesPerSecond: 1, retries: retries,
                    retryLog: (0..<retries).map { "attempt \($0 + 1) failed" }, time: time)
            case .action(let reason):
                store.queueChanged(reason: reason, time: time)
            }
        }
    }

    /// Random changes: adds in every state and under every kind of name, starts, finishes with
    /// every outcome (failures with a message), progress with retries (retry entries), operator
    /// actions, and a message on a change that is no finish (built at once, in order).
    private struct Script {
        var random: SeededGenerator
        /// Whether operations are added finished (a store evicts only the finishes it saw,
        /// so the newest finished rows would then outlive a pass).
        var addsFinished: Bool
        var nextID = 1
        var open: [Int] = []

        mutating func next() -> Change {
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 20 || open.isEmpty {
                let lifecycle = [Lifecycle.waiting, .ready, .ready, .executing, .finished][
                    Int.random(in: 0..<(addsFinished ? 5 : 4), using: &random)]
                let naming = Int.random(in: 0..<3, using: &random)
                let id = nextID
                nextID += 1
                if lifecycle != .finished { open.append(id) }
                return .add(
                    id: id, name: naming == 0 ? nil : naming == 1 ? "op \(id)" : "Block #", byClass: naming == 2,
                    lifecycle: lifecycle)
            }
            let index = Int.random(in: 0..<open.count, using: &random)
            let id = open[index]
            switch roll {
            case 20..<70:
                let to = [Lifecycle.ready, .executing, .finished, .finished][Int.random(in: 0..<4, using: &random)]
                let outcome = to == .finished ? Outcome.allCases[Int.random(in: 0..<3, using: &random)] : nil
                if to == .finished { open.remove(at: index) }
                return .transition(id: id, to: to, outcome: outcome, message: outcome == .failed ? "boom \(id)" : nil)
            case 70..<85:
                return .progress(
                    id: id, completed: Int64.random(in: 0...10, using: &random),
                    retries: Int.random(in: 0...2, using: &random))
            case 85..<92:
                return .action("action \(roll)")
            default:
                return .transition(id: id, to: .ready, outcome: nil, message: "note \(id)")
            }
        }
    }

    @Test(arguments: [1, 3, 7, 40])
    func aBacklogAppliedWithEntriesHeldBackReadsAsOneThatBuiltThemAll(logEntries: Int) {
        // No finished row kept past a pass (but in one case): the rows of entries held back go too.
        let keepsSome = logEntries == 3
        let limits = MonitorStore.Limits(
            finishedOperations: keepsSome ? 5 : 0, logEntries: logEntries, historyPerOperation: 3)
        var plain = MonitorStore(limits: limits)
        var deferring = MonitorStore(limits: limits)
        var script = Script(random: SeededGenerator(seed: UInt64(logEntries)), addsFinished: keepsSome)
        var evictions = 0
        for backlog in 0..<100 {
            deferring.defersLog = true
            let length = Int.random(in: 0..<(backlog % 3 == 0 ? 600 : 40), using: &script.random)
            for step in 0..<length {
                let change = script.next()
                let time = Duration.milliseconds(backlog * 1_000 + step)
                change.apply(to: &plain, time: time)
                change.apply(to: &deferring, time: time)
            }
            deferring.stopDeferringLog()
            #expect(Array(deferring.log) == Array(plain.log), "backlog \(backlog)")
            #expect(deferring.operations == plain.operations, "backlog \(backlog)")
            #expect(deferring.counts == plain.counts && deferring.evictedCount == plain.evictedCount)
            #expect(deferring.version == plain.version)
            evictions = plain.evictedCount
        }
        #expect(evictions > 0, "the script evicts rows while entries are held back")
        #expect(plain.log.count == logEntries)
    }

    @Test func theRingKeepsTheNewestInOrder() {
        var ring = DeferredLog()
        for number in 0..<11 {
            ring.append(.init(time: .seconds(number), id: number, from: .ready, to: .executing), keeping: 4)
        }
        var ids: [Int] = []
        ring.takeAll { ids.append($0.id) }
        #expect(ids == [7, 8, 9, 10])
        #expect(ring.isEmpty)
    }
}
