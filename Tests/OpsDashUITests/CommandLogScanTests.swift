import OpsMonitor
import Testing

@testable import OpsDashUI

/// `keepCommands` reads only the entries a picture's log gained since the last picture, and
/// still keeps every command once, in order, whatever the log drops from its front.
@Suite struct CommandLogScanTests {
    static func entry(_ milliseconds: Int, _ kind: LogEntry.Kind, _ text: String) -> LogEntry {
        LogEntry(time: .milliseconds(Int64(milliseconds)), kind: kind, text: text)
    }

    @Test func theNextPictureIsReadFromWhereTheLastStopped() throws {
        var log = SharedLog((0..<10).map { Self.entry($0, .state, "old \($0)") })
        log.append(Self.entry(10, .queue, "paused"))
        log.append(Self.entry(10, .state, "at ten"))
        let scan = try #require(CommandLogScan(after: log))
        #expect(scan.atLastTime == 2)
        #expect(scan.unread(in: log) == log.endIndex)
        log.append(Self.entry(10, .action, "same instant"))
        log.append(Self.entry(11, .state, "later"))
        log.removeFirst(4)
        #expect(scan.unread(in: log) == 8)
    }

    @Test func aLogThatDoesNotContinueIsReadWhole() throws {
        var log = SharedLog([Self.entry(1, .state, "a"), Self.entry(2, .state, "b"), Self.entry(2, .queue, "c")])
        let scan = try #require(CommandLogScan(after: log))
        // The front dropped into the entries read at the last instant.
        log.removeFirst(2)
        #expect(scan.unread(in: log) == nil)
        // Another log altogether.
        let other = SharedLog([Self.entry(1, .state, "a"), Self.entry(2, .state, "x"), Self.entry(3, .queue, "y")])
        #expect(scan.unread(in: other) == nil)
        #expect(CommandLogScan(after: SharedLog()) == nil)
    }

    /// A busy log (500 entries kept, several at one instant, commands among them) shown picture
    /// after picture: the command log is every command appended, in order, the newest 200.
    @Test func everyCommandIsKeptOnceInOrder() {
        var state = Fixtures.state(Fixtures.plain(3), width: 80, height: 30)
        var log = SharedLog()
        var commands: [String] = []
        var serial = 0
        for picture in 1...400 {
            let time = Duration.milliseconds(Int64(picture * 10))
            // 0 to 5 new entries, every fifth a command; a third of the pictures add at the
            // instant of the last one.
            for _ in 0..<(picture * 7 % 6) {
                serial += 1
                let kind: LogEntry.Kind = serial % 5 == 0 ? .action : .state
                let at = picture % 3 == 0 ? (log.last?.time ?? time) : time
                log.append(LogEntry(time: at, kind: kind, text: "entry \(serial)"))
                if kind == .action { commands.append("entry \(serial)") }
            }
            if log.count > 500 { log.removeFirst(log.count - 500) }
            var snapshot = Fixtures.snapshot(Array(Fixtures.plain(3).operations), time: time)
            snapshot.sharedLog = log
            _ = reduce(&state, .tick(snapshot))
            #expect(state.commandLog.map(\.text) == Array(commands.suffix(DashboardState.commandLogLimit)))
        }
    }
}
