import OpsDashUI
import OpsMonitor
import Testing

@Suite struct VocabularyTests {
    @Test func headerTableTreeAndDetailsUseTheSameStateWords() {
        var state = Fixtures.state(Fixtures.midRun())
        let table = render(state)
        #expect(table.lines[1].hasPrefix("waiting 5  ready 1  running 3  succeeded 1  failed 1  cancelled 1"))
        #expect(table.lines[0].contains("running 3/3"))
        #expect(table.lines[4].contains(" succeeded "))
        let words = Set(DisplayState.allCases.map(\.word))
        for line in table.lines[4..<16] {
            let stateColumn = line.dropFirst(25).prefix(9).trimmingCharacters(in: .whitespaces)
            #expect(words.contains(stateColumn), "\(line)")
        }
        state.press(.character("d"))
        let tree = render(state)
        #expect(tree.lines[4].hasPrefix("#1 ↓ fetch-manifest.json succeeded"))
        state.press(.escape, .down, .enter)
        let details = render(state).lines.joined(separator: "\n")
        #expect(details.contains("depends on #1 fetch-manifest.json succeeded"))
        #expect(!details.contains(" done") && !details.contains("executing"))
    }

    @Test func theEventLogSaysRunningAndSucceeded() {
        var store = MonitorStore()
        let id = store.add(
            name: "fetch", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [],
            time: .zero)
        store.transition(id, to: .executing, time: .seconds(1))
        store.transition(id, to: .finished, outcome: .succeeded, time: .seconds(2))
        let unicode = render(Fixtures.state(store.snapshot(time: .seconds(3)))).lines
        #expect(unicode.contains { $0.hasSuffix("#1 fetch: ready → running") })
        #expect(unicode.contains { $0.hasSuffix("#1 fetch: running → succeeded") })
        let ascii = render(Fixtures.state(store.snapshot(time: .seconds(3)), glyphs: .ascii)).lines
        #expect(ascii.contains { $0.hasSuffix("#1 fetch: running -> succeeded") })
    }

    @Test func processingStepsAreUnitsNotBytes() {
        let step = OperationSnapshot(
            id: 1, name: "resize", kind: .process, lifecycle: .executing, completedUnits: 250,
            totalUnits: 800, unitsPerSecond: 100, startedAt: .zero)
        let download = OperationSnapshot(
            id: 2, name: "fetch", kind: .download, lifecycle: .executing, completedUnits: 250_000,
            totalUnits: 800_000, unitsPerSecond: 100_000, startedAt: .zero)
        let lines = render(Fixtures.state(Fixtures.snapshot([step, download]))).lines
        #expect(lines[4].contains("250/800 units"))
        #expect(lines[4].contains("100/s"))
        #expect(!lines[4].contains(" B"))
        #expect(lines[5].contains("250.0/800.0 kB"))
        #expect(lines[5].contains("100.0 kB/s"))
    }

    @Test func speedIsShownNextToElapsed() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(render(state).lines[0].hasSuffix("elapsed 1:05"))
        state.speed = 20
        #expect(render(state).lines[0].hasSuffix("elapsed 1:05 ×20"))
        state.glyphs = .ascii
        #expect(render(state).lines[0].hasSuffix("elapsed 1:05 x20"))
    }
}
