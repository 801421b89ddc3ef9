import OpsDashUI
import OpsMonitor
import Testing

/// Names with CJK, emoji, combining marks, ZWJ sequences and flags: every column stays in
/// place, and nothing of an old frame survives a view change.
@Suite struct WideTextFrameTests {
    static func wideNames() -> QueueSnapshot {
        let mb = Fixtures.mb
        let operations = [
            OperationSnapshot(
                id: 1, name: "下载-ファイル-一覧.zip", kind: .download, lifecycle: .finished,
                outcome: .succeeded, completedUnits: 3 * mb, totalUnits: 3 * mb,
                startedAt: .seconds(1), finishedAt: .seconds(4)),
            OperationSnapshot(
                id: 2, name: "report 📊 final.pdf", kind: .upload, lifecycle: .executing,
                completedUnits: 2 * mb, totalUnits: 5 * mb, unitsPerSecond: Double(mb),
                dependencies: [1], startedAt: .seconds(5)),
            OperationSnapshot(
                id: 3, name: "cafe\u{301}-cre\u{300}me-menu", kind: .process, lifecycle: .waiting,
                totalUnits: mb, dependencies: [2]),
            OperationSnapshot(
                id: 4, name: "family 👨‍👩‍👧 photos", kind: .download, lifecycle: .finished,
                outcome: .failed, message: "接続がリセットされました (connection reset)",
                completedUnits: mb / 2, totalUnits: 4 * mb, retries: 2, startedAt: .seconds(2),
                finishedAt: .seconds(9)),
            OperationSnapshot(
                id: 5, name: "🇯🇵 tokyo-backup ❤️", kind: .upload, lifecycle: .ready,
                totalUnits: 8 * mb),
            OperationSnapshot(
                id: 6, name: "한국어 데이터 세트", kind: .other, lifecycle: .waiting,
                dependencies: [3, 5]),
        ]
        return Fixtures.snapshot(operations, time: .seconds(12), limit: 1)
    }

    @Test func tableWithWideNamesKeepsEveryColumnInPlace() {
        var state = Fixtures.state(Self.wideNames(), width: 100, height: 14)
        state.press(.down)
        let buffer = render(state)
        expectFrame(buffer, named: "wide-names-100x14")
        // Every row's cells line up: the STATE column starts at the same cell on every row.
        let header = buffer.line(3)
        let stateColumn = DisplayWidth.of(String(header.prefix(while: { $0 != "S" })))
        for row in 4..<10 {
            let cell = buffer[stateColumn - 1, row]
            #expect(cell.character == " " && cell.width == 1, "row \(row): \(buffer.line(row))")
        }
    }

    @Test func treeAndDetailsWithWideNames() {
        var state = Fixtures.state(Self.wideNames(), width: 80, height: 24)
        state.press(.character("d"), .down, .down, .down, .enter)
        expectFrame(render(state), named: "wide-names-tree-details-80x24")
    }

    @Test func narrowTerminalClipsWideNamesByColumns() {
        let state = Fixtures.state(Self.wideNames(), width: 60, height: 12)
        let buffer = render(state)
        expectFrame(buffer, named: "wide-names-60x12")
        for y in 0..<buffer.height {
            #expect(DisplayWidth.of(buffer.line(y)) == 60, "row \(y) is not 60 columns: \(buffer.line(y))")
        }
    }

    /// Frame after frame, the runs the diff sends, drawn on a terminal model, give exactly the
    /// new frame: no half of an old wide character stays anywhere.
    @Test func noStaleFragmentAfterViewChanges() {
        var state = Fixtures.state(Self.wideNames(), width: 80, height: 14)
        var terminal = TerminalModel(width: 80, height: 14)
        var front = CellBuffer(width: 0, height: 0)
        let steps: [[Key]] = [
            [], [.character("d")], [.down, .down], [.character("d")], [.enter], [.character("s")],
            [.character("f")], [.character("a")], [.enter, .escape], [.character("?")], [.escape],
        ]
        for (number, keys) in steps.enumerated() {
            for key in keys { state.press(key) }
            let back = render(state)
            terminal.apply(diff(from: front, to: back))
            front = back
            #expect(terminal.lines == back.lines, "step \(number) \(keys)")
            #expect(!terminal.lines.contains { $0.contains(TerminalModel.fragment) }, "step \(number)")
        }
    }

    @Test func diffRunsNeverSplitAWideCharacter() {
        var old = CellBuffer(width: 10, height: 1)
        old.write("漢字漢字漢", x: 0, y: 0)
        var new = old
        new.write("字", x: 2, y: 0, style: CellStyle(bold: true))  // same glyph, new style
        new.write("a", x: 7, y: 0)  // the right half of the fourth
        for run in diff(from: old, to: new) {
            #expect(run.cells.first?.isContinuation == false, "run at \(run.x) starts with half a character")
            #expect(run.cells.last?.width != 2, "run at \(run.x) ends with half a character")
        }
    }
}
