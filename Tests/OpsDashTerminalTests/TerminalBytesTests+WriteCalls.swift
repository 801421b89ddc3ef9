import OpsDashLoop
import OpsDashUI
import OpsMonitor
import Testing

@testable import OpsDashTerminal

/// One frame reaches the terminal as one `write(2)`: curses buffers the whole update and
/// flushes it once. Only a frame larger than curses' output buffer ((rows + 2) × (columns + 6)
/// bytes, 2,236 at 80×24), such as a first paint, takes one write per buffer-full. In
/// `TerminalBytesTests`' serialized suite: one curses screen at a time.
extension TerminalBytesTests {
    @Test(arguments: [1, 10, 100])
    func eachFrameIsOneWriteCall(bars: Int) throws {
        let counter = try WriteCounter()
        let ncurses = try NcursesScreen(attachedTo: try counter.openTerminal(), term: "xterm-256color")
        _ = counter.takeWrites()  // the setup
        let screen = PassRecordingScreen(ncurses) { counter.takeWrites() }
        var ticks = (0..<40).map { TransferSnapshots.downloads(executing: bars, frame: $0) }[...]
        let inbox = LoopInbox()
        _ = runDashboard(
            screen: screen, fps: 20,
            initial: DashboardState(width: ncurses.size.width, height: ncurses.size.height, glyphs: ncurses.glyphs),
            inbox: inbox,
            refresh: { picture in
                guard let next = ticks.popFirst() else {
                    inbox.stop(signal: 15)
                    return false
                }
                picture = next
                return true
            },
            perform: { _ in })
        #expect(screen.samples.count == 40)
        let bufferFull = (24 + 2) * (80 + 6) - 1
        let first = try #require(screen.samples.first)
        #expect(first.dropLast().allSatisfy { $0 == bufferFull } && first.last ?? 0 > 0, "\(first)")
        #expect(screen.samples.dropFirst().allSatisfy { $0.count == 1 }, "\(screen.samples)")
        #expect(ncurses.framesDrawn == 40)
    }
}
