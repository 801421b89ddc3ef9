import OpsDashUI
import OpsMonitor
import Testing

@testable import OpsDashTerminal

/// What the real ncurses backend writes, counted on a pseudo-terminal (xterm-256color, UTF-8,
/// 120×40 unless stated). The frames come from the real reducer, renderer, diff and run loop.
/// Byte counts are deterministic for a given terminfo entry, so they can be asserted.
///
/// `swift test --filter TerminalBytesTests` prints the figures (lines starting `bytes:`).
/// Serialized: curses has one current screen per process.
@Suite(.serialized) struct TerminalBytesTests {
    /// Two seconds of one download moving at 1 MB/s, drawn at 20 frames per second.
    private func oneBar(clockStep: Duration = .zero) -> [QueueSnapshot?] {
        (0..<40).map { TransferSnapshots.downloads(executing: 1, frame: $0, clockStep: clockStep) }
    }

    @Test func unchangedFramesDrawNothingAndWriteNothing() throws {
        let still = TransferSnapshots.downloads(executing: 3, frame: 0)
        var sameAgain = still
        sameAgain.version += 1  // a new snapshot whose picture is identical
        let costs = try measureFrames(
            width: 120, height: 40,
            ticks: [still] + Array(repeating: nil, count: 5)
                + Array(repeating: sameAgain, count: 5))
        #expect(costs.bytes.count == 11)
        #expect(costs.bytes[0] > 1000)  // the first paint
        #expect(costs.updates.allSatisfy { $0 == 0 }, "\(costs.bytes)")
        #expect(costs.framesDrawn == 1)
    }

    @Test func redrawingCellsThatAreAlreadyOnScreenWritesNothing() throws {
        let terminal = try PseudoTerminal(width: 120, height: 40)
        let screen = try NcursesScreen(attachedTo: try terminal.openTerminal(), term: "xterm-256color")
        defer { screen.close() }
        _ = try terminal.takeOutput()
        let state = Self.state(TransferSnapshots.downloads(executing: 3, frame: 0))
        let everything = diff(from: CellBuffer(width: 0, height: 0), to: render(state))
        screen.draw(everything)
        #expect(try terminal.takeOutput().count > 1000)
        screen.draw(everything)  // even a whole-screen diff costs nothing when nothing changed
        #expect(try terminal.takeOutput().isEmpty)
        #expect(screen.framesDrawn == 2)
    }

    /// A wide character goes out once, as its UTF-8 bytes, and the columns after it stay put;
    /// a flag, which curses measures as one column per half, goes out as one column and a space.
    @Test func wideCharactersAreSentOnceAndKeepTheirColumns() throws {
        let terminal = try PseudoTerminal(width: 40, height: 5)
        let screen = try NcursesScreen(attachedTo: try terminal.openTerminal(), term: "xterm-256color")
        defer { screen.close() }
        _ = try terminal.takeOutput()
        var buffer = CellBuffer(width: 40, height: 5)
        buffer.write("ab漢字cd", x: 0, y: 1)
        buffer.write("🇯🇵x", x: 0, y: 2)
        screen.draw(diff(from: CellBuffer(width: 0, height: 0), to: buffer))
        let text = String(decoding: try terminal.takeOutput(), as: UTF8.self)
        #expect(text.contains("ab漢字cd"), "\(text.debugDescription)")
        #expect(text.contains("\u{1F1EF} x"), "\(text.debugDescription)")
        #expect(!text.contains("\u{1F1F5}"))
    }

    @Test(arguments: [(80, 24), (120, 40), (200, 60)])
    func oneMovingBarWritesUnder100BytesPerFrame(width: Int, height: Int) throws {
        let costs = try measureFrames(width: width, height: height, ticks: oneBar())
        #expect(costs.framesDrawn == 40)  // the bar moves every frame
        #expect(costs.bytes[0] > 1000)  // a whole-screen repaint per frame could never pass
        for (frame, bytes) in costs.bytes.enumerated().dropFirst() {
            #expect(bytes > 0 && bytes < 100, "frame \(frame): \(bytes) B: \(costs.readable(frame))")
        }
        report("one bar \(width)x\(height)", costs)
    }

    @Test func theClockTickCostsAtMost20BytesMoreAndStaysUnder100() throws {
        let still = try measureFrames(width: 120, height: 40, ticks: oneBar())
        let ticking = try measureFrames(width: 120, height: 40, ticks: oneBar(clockStep: .seconds(1)))
        // Same progress in both runs; in the second the second changes every frame, redrawing the
        // header's clock and the row's TIME.
        for frame in 1..<40 {
            let extra = ticking.bytes[frame] - still.bytes[frame]
            #expect(extra > 0 && extra <= 20, "frame \(frame): \(ticking.readable(frame))")
            #expect(ticking.bytes[frame] < 100, "frame \(frame): \(ticking.readable(frame))")
        }
        report("one bar, clock ticking every frame", ticking)
    }

    @Test func pausedDashboardWritesOnlyTheClockOncePerSecond() throws {
        // 20 s at 20 fps: the runner takes a snapshot once a second for the clock and gets
        // "nothing changed" on the other 19 frames.
        var ticks: [QueueSnapshot?] = []
        for second in 0...20 {
            ticks.append(TransferSnapshots.paused(ready: 10, seconds: second))
            if second < 20 { ticks += Array(repeating: nil, count: 19) }
        }
        let costs = try measureFrames(width: 120, height: 40, ticks: ticks)
        #expect(costs.framesDrawn == 21)
        let perSecond = stride(from: 20, to: costs.bytes.count, by: 20).map { costs.bytes[$0] }
        #expect(perSecond.count == 20)
        #expect(perSecond.allSatisfy { $0 > 0 && $0 <= 12 }, "\(perSecond)")
        #expect(costs.updates.reduce(0, +) == perSecond.reduce(0, +))  // the other frames: 0
        print("bytes: paused, 20 s: \(perSecond.reduce(0, +)) B (\(perSecond) per second)")
    }

    @Test(arguments: [(10, 120, 40), (100, 120, 40), (100, 200, 60)])
    func busyFramesCostWhatChangedNotTheScreen(bars: Int, width: Int, height: Int) throws {
        let ticks = (0..<40).map { TransferSnapshots.downloads(executing: bars, frame: $0) }
        let costs = try measureFrames(width: width, height: height, ticks: ticks)
        let largest = costs.updates.max() ?? 0
        #expect(largest > 0 && largest < costs.bytes[0] / 4, "\(costs.bytes)")
        report("\(bars) bars \(width)x\(height)", costs)
    }

    private static func state(_ snapshot: QueueSnapshot) -> DashboardState {
        var state = DashboardState(width: 120, height: 40)
        _ = reduce(&state, .tick(snapshot))
        return state
    }

    private func report(_ name: String, _ costs: FrameCosts) {
        let updates = costs.updates.sorted()
        let mean = Double(updates.reduce(0, +)) / Double(max(1, updates.count))
        print(
            "bytes: \(name): first paint \(costs.bytes[0]) B, then per frame min \(updates.first ?? 0)"
                + " median \(updates[updates.count / 2]) mean \(Int(mean.rounded())) max \(updates.last ?? 0)")
    }
}
