import OpsMonitor
import Testing

@testable import OpsDashUI

/// The widget contract: each widget draws only inside the rectangle it is given, whatever its
/// size and wherever it sits, and draws there exactly what it draws in a buffer of its own.
@Suite struct WidgetContractTests {
    /// A widget of the dashboard with a name, drawn into an area.
    struct Named: CustomStringConvertible {
        let description: String
        let draw: @Sendable (inout CellBuffer, Rect) -> Void

        init(description: String, draw: @escaping @Sendable (inout CellBuffer, Rect) -> Void) {
            self.description = description
            self.draw = draw
        }

        /// `widget` drawn through the `Widget` protocol, as any new widget is.
        init(_ description: String, _ widget: some Widget & Sendable) {
            self.init(description: description) { widget.render(into: &$0, area: $1) }
        }
    }

    /// What every cell outside the area holds before and after drawing.
    static let sentinel = Cell("~", style: CellStyle(foreground: .magenta))
    static let bufferWidth = 50
    static let bufferHeight = 24

    /// Wide names, a failed operation's CJK message, a CJK source and log entries, the
    /// details pane open on a wide name, a filter: every widget has wide text to cut.
    static func state(tree: Bool = false) -> DashboardState {
        var snapshot = WideTextFrameTests.wideNames()
        snapshot.log = [
            LogEntry(time: .seconds(3), kind: .action, operationID: 4, text: "接続がリセットされました"),
            LogEntry(time: .seconds(4), kind: .queue, text: "한국어 데이터 세트 큐"),
            LogEntry(time: .seconds(5), kind: .retry, operationID: 2, text: "再試行 📊 2"),
        ]
        var state = Fixtures.state(snapshot, width: 100, height: 40)
        state.source = SourceStatus(label: "アプリ/キュー", detail: "接続済み (読み取り専用)", link: .connected)
        state.press(.down, .down, .down)
        if tree { state.press(.character("d")) }
        state.press(.enter)
        return state
    }

    static let widgets: [Named] = {
        let state = Self.state()
        let tree = Self.state(tree: true)
        let editing = {
            var editing = state
            editing.press(.character("f"))
            editing.type("下载")
            return editing
        }()
        return [
            Named("header", HeaderView(state)),
            Named(description: "table") {
                TableView(state, rows: max(0, $1.height - 1)).render(into: &$0, area: $1, cache: RenderCache())
            },
            Named(description: "filtered table") {
                TableView(editing, rows: max(0, $1.height - 1)).render(into: &$0, area: $1)
            },
            Named(description: "tree") { TreeView(tree, rows: max(0, $1.height - 1)).render(into: &$0, area: $1) },
            Named("details", DetailsView(state)),
            Named(description: "log") {
                LogView(state, lines: max(0, $1.height - 1)).render(into: &$0, area: $1, cache: RenderCache())
            },
            Named("footer", FooterView(state)),
            Named(description: "footer message") {
                FooterView(content: .message("接続がリセットされました"), position: "12345/67890")
                    .render(into: &$0, area: $1)
            },
            Named("footer filter", FooterView(editing)),
            Named("help", HelpOverlay(glyphs: .unicode, scroll: 3)),
            Named(
                "history",
                HistoryView(glyphs: .unicode, window: 900, end: .seconds(65), history: HistoryViewTests.history())),
            Named("enlarge", TooSmallView(glyphs: .unicode)),
        ]
    }()

    /// Areas in the middle, at every width (so each wide character meets the right edge),
    /// one cell, no cells, and partly off the buffer.
    static let areas: [Rect] =
        (0...43).map { Rect(x: 6, y: 4, width: $0, height: 14) }
        + (0...16).map { Rect(x: 3, y: 3, width: 41, height: $0) }
        + [
            Rect(x: 10, y: 10, width: 1, height: 1), Rect(x: 10, y: 10, width: 0, height: 0),
            Rect(x: 49, y: 23, width: 1, height: 1), Rect(x: 40, y: 18, width: 30, height: 20),
            Rect(x: -5, y: -2, width: 20, height: 6), Rect(x: 60, y: 30, width: 5, height: 5),
        ]

    /// `widget` drawn into `area` of a buffer full of `sentinel`.
    static func drawn(_ widget: Named, in area: Rect) -> CellBuffer {
        var buffer = CellBuffer(width: bufferWidth, height: bufferHeight)
        buffer.fill(x: 0, y: 0, width: bufferWidth, height: bufferHeight, with: sentinel)
        widget.draw(&buffer, area)
        return buffer
    }

    @Test(arguments: widgets)
    func drawsNothingOutsideItsArea(_ widget: Named) {
        for area in Self.areas {
            let buffer = Self.drawn(widget, in: area)
            var outside = 0
            for y in 0..<buffer.height {
                for x in 0..<buffer.width where !area.contains(column: x, row: y) && buffer[x, y] != Self.sentinel {
                    outside += 1
                }
            }
            #expect(outside == 0, "\(widget) in \(area) wrote \(outside) cells outside")
        }
    }

    @Test(arguments: widgets)
    func drawsInItsAreaWhatItDrawsInABufferOfItsOwn(_ widget: Named) {
        for area in Self.areas
        where area.x >= 0 && area.y >= 0 && area.maxX <= Self.bufferWidth && area.maxY <= Self.bufferHeight {
            let placed = Self.drawn(widget, in: area)
            var alone = CellBuffer(width: area.width, height: area.height)
            alone.fill(x: 0, y: 0, width: area.width, height: area.height, with: Self.sentinel)
            widget.draw(&alone, Rect(x: 0, y: 0, width: area.width, height: area.height))
            var differing = 0
            for y in 0..<area.height {
                for x in 0..<area.width where placed[area.x + x, area.y + y] != alone[x, y] { differing += 1 }
            }
            #expect(differing == 0, "\(widget) in \(area): \(differing) cells differ from its own buffer")
        }
    }

    @Test(arguments: widgets)
    func drawsSomethingInAnAreaOfUsableSize(_ widget: Named) {
        let area = Rect(x: 6, y: 4, width: 40, height: 14)
        let buffer = Self.drawn(widget, in: area)
        var drawn = 0
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX where buffer[x, y] != Self.sentinel { drawn += 1 }
        }
        #expect(drawn > 0, "\(widget) drew nothing")
    }

    @Test func aWideCharacterCutByTheRightEdgeShowsAsASpace() {
        // "   0:03.0 #4 接続…": "接" takes columns 13-14, "続" 15-16; an area 16 wide ends inside "続".
        let entry = LogEntry(time: .seconds(3), kind: .action, operationID: 4, text: "接続がリセット")
        let log = LogView(lines: [LogLine(entry: entry, repeats: 1)])
        let area = Rect(x: 6, y: 4, width: 16, height: 2)
        var buffer = CellBuffer(width: 30, height: 8)
        buffer.fill(x: 0, y: 0, width: 30, height: 8, with: Self.sentinel)
        log.render(into: &buffer, area: area)
        #expect(buffer.line(5) == "~~~~~~   0:03.0 #4 接 ~~~~~~~~")
        #expect(buffer[area.x + 13, 5].width == 2)
        #expect(buffer[area.x + 15, 5] == Cell(" ", style: CellStyle(foreground: .yellow)))
        #expect(buffer[area.maxX, 5] == Self.sentinel)
    }
}
