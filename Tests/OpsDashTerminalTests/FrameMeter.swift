import Foundation
import OpsDashLoop
import OpsDashUI
import OpsMonitor

@testable import OpsDashTerminal

/// What the real dashboard loop wrote to the terminal, frame by frame.
struct FrameCosts {
    /// What each pass of the loop wrote: index 0 is the first (full) paint, then one per
    /// scripted tick after the first.
    var output: [[UInt8]]
    /// `NcursesScreen.framesDrawn` at the end: passes that flushed something.
    var framesDrawn: Int
    /// Bytes written while the screen opened (before the first frame).
    var setupBytes: Int

    /// Bytes written by each pass.
    var bytes: [Int] { output.map(\.count) }
    /// Bytes per pass after the first paint.
    var updates: ArraySlice<Int> { bytes.dropFirst() }

    /// Pass `index`'s output with escape characters shown as `⎋`, for failure messages.
    func readable(_ index: Int) -> String {
        String(decoding: output[index], as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "⎋")
    }
}

/// Runs `runDashboard` (the real reducer, renderer, diff and `NcursesScreen`) on a
/// `width × height` pseudo-terminal of type `term`, feeding it `ticks` as the snapshots of
/// successive frames (nil = nothing changed), and measures the bytes each frame wrote.
///
/// The loop never waits: input is polled with a zero timeout, and the run stops once every
/// tick has been drawn. `prepare` adjusts the initial state (e.g. a sort order).
func measureFrames(
    width: Int, height: Int, term: String = "xterm-256color", ticks: [QueueSnapshot?],
    prepare: (inout DashboardState) -> Void = { _ in }
) throws -> FrameCosts {
    let terminal = try PseudoTerminal(width: width, height: height)
    let ncurses = try NcursesScreen(attachedTo: try terminal.openTerminal(), term: term)
    let setup = try terminal.takeOutput()
    let screen = PassRecordingScreen(ncurses) { try terminal.takeOutput() }
    var initial = DashboardState(width: width, height: height, glyphs: ncurses.glyphs)
    prepare(&initial)
    var remaining = ticks[...]
    let inbox = LoopInbox()
    _ = runDashboard(
        screen: screen, fps: 20, initial: initial, inbox: inbox,
        refresh: { picture in
            // SIGTERM's number once the ticks are spent; a lost marker ends the run at once
            // instead of waiting out every later pass.
            guard screen.failure == nil, let next = remaining.popFirst() else {
                inbox.stop(signal: 15)
                return false
            }
            guard let next else { return false }
            picture = next
            return true
        },
        perform: { _ in })
    if let failure = screen.failure { throw failure }
    return FrameCosts(output: screen.samples, framesDrawn: ncurses.framesDrawn, setupBytes: setup.count)
}

/// Forwards to an `NcursesScreen` and, each time the loop asks for input (once per pass),
/// records what `sample` says about the pass that just ended (the bytes or writes the terminal
/// received). Input is polled without waiting, so the loop runs as fast as it can draw.
final class PassRecordingScreen<Sample>: TerminalScreen {
    private let screen: NcursesScreen
    private let sample: () throws -> Sample
    private(set) var samples: [Sample] = []
    private(set) var failure: (any Error)?

    init(_ screen: NcursesScreen, sample: @escaping () throws -> Sample) {
        self.screen = screen
        self.sample = sample
    }

    var size: TerminalSize { screen.size }
    var glyphs: GlyphSet { screen.glyphs }

    func draw(_ runs: [CellRun]) { screen.draw(runs) }

    func readInput(timeoutMilliseconds: Int) -> TerminalInput? {
        do {
            samples.append(try sample())
        } catch {
            failure = failure ?? error
        }
        return screen.readInput(timeoutMilliseconds: 0)
    }

    func close() { screen.close() }
}
