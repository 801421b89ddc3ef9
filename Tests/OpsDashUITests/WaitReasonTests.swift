import OpsDashUI
import OpsMonitor
import Testing

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
