import OpsDashUI

/// A screen that replays scripted input (nil = a timeout) and records every draw.
final class FakeScreen: TerminalScreen {
    var size: TerminalSize
    let glyphs: GlyphSet = .unicode
    private var script: [TerminalInput?]
    private(set) var draws: [[CellRun]] = []
    private(set) var timeouts: [Int] = []
    private(set) var closeCount = 0
    /// Draw numbers that followed a request to clear the terminal.
    private(set) var clearedBeforeDraw: [Int] = []
    /// Called after each read with the number of reads so far (e.g. to send the loop a stop).
    var onRead: (Int) -> Void = { _ in }

    init(width: Int, height: Int, script: [TerminalInput?]) {
        size = TerminalSize(width: width, height: height)
        self.script = script
    }

    func draw(_ runs: [CellRun]) { draws.append(runs) }

    func readInput(timeoutMilliseconds: Int) -> TerminalInput? {
        timeouts.append(timeoutMilliseconds)
        defer { onRead(timeouts.count) }
        // An exhausted script quits, so a broken loop can't hang the test run.
        guard !script.isEmpty else { return .key(.character("q")) }
        let next = script.removeFirst()
        if case .resize(let width, let height) = next {
            size = TerminalSize(width: width, height: height)
        }
        return next
    }

    func close() { closeCount += 1 }

    func clearOnNextDraw() { clearedBeforeDraw.append(draws.count) }

    /// Cells in draw number `index`.
    func cellCount(_ index: Int) -> Int { draws[index].reduce(0) { $0 + $1.cells.count } }
}
