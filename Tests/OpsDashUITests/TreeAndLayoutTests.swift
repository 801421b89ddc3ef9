import OpsDashUI
import OpsMonitor
import Testing

@Suite struct DependencyTreeTests {
    private func tree(_ operations: [OperationSnapshot]) -> RowOrder {
        RowOrder.make(for: Fixtures.snapshot(operations), sort: .id, filter: "", tree: true)
    }

    private func op(_ id: Int, after dependencies: [Int] = []) -> OperationSnapshot {
        OperationSnapshot(id: id, name: "op-\(id)", dependencies: dependencies)
    }

    @Test func rootsFirstAndEachOperationUnderItsFirstDependency() {
        let rows = tree([op(1), op(2), op(3, after: [1]), op(4, after: [2, 1]), op(5, after: [3])])
        #expect(rows.ids == [1, 3, 5, 2, 4])
        #expect(rows.alsoAfter == [[], [], [], [], [1]])
        #expect(rows.guides.map(\.count) == [1, 2, 3, 1, 2])
    }

    @Test func everyOperationAppearsExactlyOnce() {
        let operations = (1...50).map { id in op(id, after: id > 2 ? [id - 1, id - 2] : []) }
        let rows = tree(operations)
        #expect(rows.ids.sorted() == Array(1...50))
    }

    @Test func anEvictedDependencyMakesARoot() {
        let rows = tree([op(5, after: [1]), op(6, after: [5])])
        #expect(rows.ids == [5, 6])
        #expect(rows.guides[0].count == 1)
    }

    @Test func aCycleStillListsEveryOperation() {
        let rows = tree([op(1, after: [2]), op(2, after: [1]), op(3)])
        #expect(rows.ids.sorted() == [1, 2, 3])
    }

    @Test func aLongChainDoesNotOverflowTheStack() {
        let operations = (1...20_000).map { op($0, after: $0 > 1 ? [$0 - 1] : []) }
        let rows = tree(operations)
        #expect(rows.ids.count == 20_000)
        #expect(rows.ids.last == 20_000)
    }
}

@Suite struct LayoutTests {
    @Test func minimumSizeIsSixtyByTwelve() {
        #expect(Layout(width: 60, height: 12, showDetails: false).fits)
        #expect(!Layout(width: 59, height: 12, showDetails: false).fits)
        #expect(!Layout(width: 60, height: 11, showDetails: false).fits)
    }

    @Test func theLogShowsOnlyOnTallTerminals() {
        #expect(Layout(width: 80, height: 29, showDetails: false).log == nil)
        let tall = Layout(width: 80, height: 30, showDetails: false)
        #expect(tall.log == Layout.Band(y: 22, height: 7))
        #expect(tall.main.y + tall.main.height == 22)
    }

    @Test func detailsTakeSpaceFromTheTableButLeaveRows() {
        let small = Layout(width: 60, height: 12, showDetails: true)
        #expect(small.visibleRows >= 3)
        #expect(small.details?.height == 4)
        let big = Layout(width: 120, height: 40, showDetails: true)
        #expect(big.details?.height == 12)
        #expect((big.details?.y ?? 0) + 12 == big.log?.y)
    }
}

@Suite struct WaitReasonTests {
    @Test func waitingListsOnlyUnfinishedDependencies() {
        let state = Fixtures.state(Fixtures.midRun())
        let merge = state.snapshot.operation(id: 12)
        #expect(merge.map { WaitReason($0, in: state) } == .dependencies([8, 4]))
        let transcode = state.snapshot.operation(id: 5)
        #expect(transcode.map { WaitReason($0, in: state) } == .dependencies([2]))
        let part = state.snapshot.operation(id: 2)
        #expect(part.map { WaitReason($0, in: state) } == WaitReason.none)
    }

    @Test func readyIsPausedOrBusyOrAboutToStart() {
        let busy = Fixtures.state(Fixtures.midRun())
        let subtitles = busy.snapshot.operation(id: 9)
        #expect(subtitles.map { WaitReason($0, in: busy) } == .slotsBusy)
        let paused = Fixtures.state(Fixtures.midRun(suspended: true))
        #expect(subtitles.map { WaitReason($0, in: paused) } == .queuePaused)
        var free = Fixtures.state(Fixtures.midRun())
        free.press(.character("+"))
        #expect(subtitles.map { WaitReason($0, in: free) } == WaitReason.none)
    }
}

@Suite struct TableColumnTests {
    @Test func narrowTablesDropLessImportantColumnsFirst() {
        let wide = render(Fixtures.state(Fixtures.midRun(), width: 160, height: 20)).lines[3]
        for title in ["ID", "NAME", "STATE", "PROGRESS", "BYTES", "RATE", "ETA", "TIME", "RT"] {
            #expect(wide.contains(title))
        }
        #expect(wide.contains("AFTER") && wide.contains("WHY"))
        let narrow = render(Fixtures.state(Fixtures.midRun(), width: 60, height: 20)).lines[3]
        #expect(narrow == "ID    NAME         STATE     PROGRESS        % WHY")
    }

    @Test func theNameColumnTakesTheSpareWidth() {
        let wide = render(Fixtures.state(Fixtures.midRun(), width: 200, height: 20))
        #expect(wide.lines[4].contains("fetch-manifest.json "))
    }
}

@Suite(.disabled(if: isRecordingSnapshots, "would write the files it checks for"))
struct FrameAssertionTests {
    @Test func aMissingSnapshotFileFailsTheTest() {
        withKnownIssue {
            expectFrame(CellBuffer(width: 3, height: 1), named: "does-not-exist")
        }
    }

    @Test func aDifferentFrameFails() {
        withKnownIssue {
            expectFrame(CellBuffer(width: 3, height: 1), named: "too-small-59x30")
        }
    }
}
