import OpsDashUI
import OpsMonitor
import Testing

@Suite struct DependencyViewTests {
    @Test func theTreeAppliesTheFilterKeepingWhatMatchesAreUnder() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 30)
        state.press(.character("d"), .character("f"))
        state.type("merge")
        state.press(.enter)
        // merge-video (#7) is under transcode-part-1 (#5), under video-part-1 (#2), under #1.
        #expect(state.rows.ids == [1, 2, 5, 7])
        #expect(state.rows.isContext == [true, true, true, false])
        let lines = render(state).lines
        #expect(lines[3].contains("only \"merge\""))
        #expect(lines[7].contains("merge-video"))
        #expect(render(state)[0, 4].style.dim, "context rows are dim")
    }

    @Test func theTreeOrdersSiblingsByTheSort() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 30)
        state.press(.character("d"))
        let byID = state.rows.ids
        state.press(.character("s"))  // state: running first
        #expect(state.sort == .state)
        let byState = state.rows.ids
        #expect(byState != byID)
        #expect(Set(byState) == Set(byID))
        // Roots by state: the running upload (#4) before the ready #9, the done #1 last.
        let roots = byState.filter { id in state.rows.depths[byState.firstIndex(of: id) ?? 0] == 0 }
        #expect(roots.first == 4)
        #expect(roots.last == 1 || roots.last == 11)
        #expect(render(state).lines[3].contains("siblings by state"))
    }

    @Test func deepTreesFoldTheIndentSoTheSelectedRowShows() {
        let chain = (1...60).map {
            OperationSnapshot(id: $0, name: "step-\($0)", dependencies: $0 > 1 ? [$0 - 1] : [])
        }
        var state = Fixtures.state(Fixtures.snapshot(chain), width: 80, height: 24)
        state.press(.character("d"), .end)
        let buffer = render(state)
        let selected = (0..<buffer.height).first {
            buffer[0, $0].style.reverse && buffer.line($0).contains("#60 · step-60")
        }
        #expect(selected != nil, "the selected deepest row shows its id and name")
        for y in 4..<23 {
            let line = buffer.line(y)
            #expect(line.contains("step-"), "row \(y) shows no operation: \(line)")
            let indent = line.prefix { !"#".contains($0) }
            #expect(indent.count <= 80 / 3, "row \(y) indents \(indent.count)")
        }
        expectFrame(buffer, named: "deep-tree-80x24")
    }
}
