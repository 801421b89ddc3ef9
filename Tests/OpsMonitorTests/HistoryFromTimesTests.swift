import OpsKit
import Testing
@testable import OpsMonitor

/// A row's start and finish are held in its history by its own times (`HistoryFromTimes`): an
/// added, started and finished operation's history takes no array, reads and compares as the
/// changes it holds, and stays what it was whatever is set on the row afterwards.
@Suite struct HistoryFromTimesTests {
    private func finishedRow() -> OperationSnapshot? {
        var store = MonitorStore()
        let id = store.add(
            name: "a", kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .seconds(1))
        store.transition(id, to: .executing, time: .seconds(2))
        store.transition(id, to: .finished, outcome: .failed, message: "boom", time: .seconds(3))
        return store.operation(id: id)
    }

    private let expected = [
        StateChange(time: .seconds(1), lifecycle: .ready), StateChange(time: .seconds(2), lifecycle: .executing),
        StateChange(time: .seconds(3), lifecycle: .finished, outcome: .failed),
    ]

    @Test func anAddedStartedAndFinishedRowHoldsNoArray() throws {
        let row = try #require(finishedRow())
        #expect(row.changes.isEmpty && row.changes.capacity == 0)
        #expect(row.history == expected)
        var built = row
        built.history = expected
        #expect(!built.changes.isEmpty)
        #expect(built == row && row == built)
    }

    @Test func settingATimeOrTheOutcomeLaterKeepsTheHistory() throws {
        var row = try #require(finishedRow())
        row.startedAt = .seconds(10)
        #expect(row.history == expected)
        row = try #require(finishedRow())
        row.finishedAt = nil
        #expect(row.history == expected)
        row = try #require(finishedRow())
        row.outcome = .succeeded
        #expect(row.history == expected)
        #expect(row != finishedRow())
    }

    /// Random lives (waits, restarts, repeats, finishes at the times of starts) at every history
    /// limit: the history reads as every change made, the first and the newest kept.
    @Test(arguments: [2, 3, 4, 16])
    func aHistoryReadsAsEveryChangeKept(limit: Int) {
        var random = SeededGenerator(seed: UInt64(limit))
        for _ in 0..<300 {
            var store = MonitorStore(limits: .init(historyPerOperation: limit))
            let first = [Lifecycle.waiting, .ready, .executing][Int.random(in: 0..<3, using: &random)]
            let id = store.add(name: nil, kind: .other, lifecycle: first, totalBytes: 0, dependencies: [], time: .zero)
            var model = [StateChange(time: .zero, lifecycle: first)]
            var current = first
            var time = Duration.zero
            for _ in 0..<Int.random(in: 0..<6, using: &random) where current != .finished {
                // Repeated times too: a finish at its start's time is still told apart.
                if Bool.random(using: &random) { time += .nanoseconds(Int.random(in: 1...3, using: &random)) }
                let to = [Lifecycle.ready, .executing, .finished][Int.random(in: 0..<3, using: &random)]
                let outcome = to == .finished ? Outcome.allCases[Int.random(in: 0..<3, using: &random)] : nil
                store.transition(id, to: to, outcome: outcome, time: time)
                guard to != current else { continue }
                current = to
                model.append(StateChange(time: time, lifecycle: to, outcome: outcome))
                if model.count > limit { model.remove(at: 1) }
            }
            #expect(store.operation(id: id)?.history == model, "limit \(limit): \(model)")
            var walked: [StateChange] = []
            store.operation(id: id)?.forEachChange { walked.append($0) }
            #expect(walked == model, "read in place")
        }
    }
}
