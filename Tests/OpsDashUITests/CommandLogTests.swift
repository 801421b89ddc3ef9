import OpsMonitor
import Testing

@testable import OpsDashUI

/// Limit changes in a row make one event line, and `a` keeps the queue's changes and the
/// commands in view after a busy queue's state changes pushed them out of the picture's log.
@Suite struct CommandLogTests {
    static func queue(_ seconds: Int, _ text: String) -> LogEntry {
        LogEntry(time: .seconds(Int64(seconds)), kind: .queue, text: text)
    }

    static func stateChange(_ seconds: Int, id: Int) -> LogEntry {
        LogEntry(time: .seconds(Int64(seconds)), kind: .state, operationID: id, text: "op-\(id): ready → running")
    }

    @Test func successiveLimitChangesMakeOneLine() {
        let log = [
            Self.queue(1, "concurrency limit 4→5"), Self.queue(1, "concurrency limit 5→6"),
            Self.queue(2, "concurrency limit 6→9"),
        ]
        let lines = LogLine.last(6, of: log)
        #expect(lines.map(\.entry.text) == ["concurrency limit 4→9"])
        #expect(lines.first?.entry.time == .seconds(2))
    }

    /// Attached, each press logs the app's queue change and the viewer's audit line, in turns:
    /// each chain still makes one line.
    @Test func interleavedAuditAndQueueLinesEachMakeOneLine() {
        let log = [
            Self.queue(1, "concurrency limit 3→4"), Self.queue(1, "uid 1000 (alice): limit 3→4"),
            Self.queue(1, "concurrency limit 4→5"), Self.queue(1, "uid 1000 (alice): limit 4→5"),
            Self.queue(2, "concurrency limit 5→4"), Self.queue(2, "uid 1000 (alice): limit 5→4"),
        ]
        #expect(
            LogLine.last(6, of: log).map(\.entry.text) == [
                "concurrency limit 3→4", "uid 1000 (alice): limit 3→4",
            ])
    }

    @Test func aBrokenChainStaysApart() {
        let log = [
            Self.queue(1, "concurrency limit 3→4"), Self.queue(2, "queue paused"),
            Self.queue(3, "concurrency limit 4→5"), Self.queue(4, "concurrency limit 7→8"),
        ]
        #expect(
            LogLine.last(6, of: log).map(\.entry.text) == [
                "concurrency limit 3→4", "queue paused", "concurrency limit 4→5", "concurrency limit 7→8",
            ])
    }

    @Test func theCommandLogOutlivesThePicturesLog() {
        var state = Fixtures.state(Fixtures.plain(3), width: 80, height: 30)
        var log = [Self.queue(1, "uid 1000 (alice): suspend")]
        log += (0..<40).map { Self.stateChange(2, id: $0 % 3 + 1) }
        _ = reduce(&state, .tick(Fixtures.snapshot(Array(Fixtures.plain(3).operations), time: .seconds(2), log: log)))
        // The picture's log moves on (it keeps its newest entries only): the audit has left it.
        let later = (0..<40).map { Self.stateChange(3, id: $0 % 3 + 1) } + [Self.queue(3, "queue resumed")]
        _ = reduce(
            &state, .tick(Fixtures.snapshot(Array(Fixtures.plain(3).operations), time: .seconds(3), log: later)))
        // The same picture again adds nothing twice.
        _ = reduce(
            &state, .tick(Fixtures.snapshot(Array(Fixtures.plain(3).operations), time: .seconds(3), log: later)))
        #expect(state.commandLog.map(\.text) == ["uid 1000 (alice): suspend", "queue resumed"])
        var frame = render(state)
        #expect(!(0..<frame.height).contains { frame.line($0).contains("alice") })
        state.press(.character("a"))
        frame = render(state)
        expectFrame(frame, named: "command-log-80x30")
        #expect((0..<frame.height).contains { frame.line($0).contains("uid 1000 (alice): suspend") })
        state.press(.character("a"))
        #expect(!state.showCommandLog)
    }

    @Test func anEarlierPictureStartsTheCommandLogAgain() {
        var state = Fixtures.state(Fixtures.plain(1), width: 80, height: 20)
        _ = reduce(
            &state,
            .tick(Fixtures.snapshot([], time: .seconds(9), log: [Self.queue(9, "queue paused")])))
        _ = reduce(
            &state,
            .tick(Fixtures.snapshot([], time: .seconds(2), log: [Self.queue(1, "concurrency limit 3→4")])))
        #expect(state.commandLog.map(\.text) == ["concurrency limit 3→4"])
    }
}
