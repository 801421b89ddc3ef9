import OpsDashUI
import OpsMonitor
import Testing

@Suite struct EventLogTests {
    static func repeatedActions() -> [LogEntry] {
        var log: [LogEntry] = [LogEntry(time: .seconds(1), kind: .state, operationID: 1, text: "started")]
        for second in 2...4 {
            log.append(LogEntry(time: .seconds(second), kind: .action, text: "operator cancelled #3"))
        }
        log.append(LogEntry(time: .seconds(5), kind: .queue, text: "queue paused"))
        log.append(LogEntry(time: .seconds(6), kind: .state, operationID: 2, text: "started"))
        log.append(LogEntry(time: .seconds(7), kind: .state, operationID: 2, text: "started"))
        return log
    }

    @Test func repeatedOperatorLinesAreMerged() {
        let snapshot = Fixtures.snapshot(
            (1...20).map { OperationSnapshot(id: $0, name: "op-\($0)") }, log: Self.repeatedActions())
        let lines = render(Fixtures.state(snapshot, width: 80, height: 40)).lines
        let cancelled = lines.filter { $0.contains("operator cancelled #3") }
        #expect(cancelled.count == 1)
        #expect(cancelled.first?.hasSuffix("operator cancelled #3 ×3") == true)
        #expect(cancelled.first?.contains("0:04.0") == true, "the newest time")
        #expect(lines.filter { $0.hasSuffix("#2 started") }.count == 2, "state lines are never merged")
    }

    @Test func theLogTakesTheHeightTheTableLeaves() {
        let log = (0..<40).map {
            LogEntry(time: .seconds(Int64($0)), kind: .queue, text: "concurrency limit \($0)")
        }
        let few = Fixtures.snapshot((1...3).map { OperationSnapshot(id: $0, name: "op-\($0)") }, log: log)
        let state = Fixtures.state(few, width: 80, height: 40)
        let layout = Layout(state)
        #expect(layout.visibleRows == 3)
        #expect(layout.log.map { $0.height } == 40 - 1 - 3 - 4)
        let lines = render(state).lines
        #expect(lines.contains { $0.hasSuffix("concurrency limit 39") })
        #expect(lines.contains { $0.hasSuffix("concurrency limit 9") })
        #expect(!lines.contains { $0.hasSuffix("concurrency limit 8") })
        // Many rows: the log keeps its standing height.
        let many = Fixtures.state(
            Fixtures.snapshot((1...100).map { OperationSnapshot(id: $0, name: "op-\($0)") }, log: log),
            width: 80, height: 40)
        #expect(Layout(many).log?.height == Layout.logHeight)
        // A short terminal shows the log when the table leaves room for it.
        let short = Fixtures.state(few, width: 80, height: 20)
        #expect(Layout(short).log.map { $0.height } == 20 - 1 - 3 - 4)
    }
}
