import OpsMonitor
@testable import OpsWire
import Testing
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// A viewer attaching to an app gets the app's per-second history with the snapshot, and the
/// deltas after it continue that history.
@Suite struct ViewerHistoryJoinTests {
    @Test func theJoinSnapshotCarriesTheAppsHistoryAndDeltasContinueIt() {
        var app = MonitorStore()
        let a = app.add(name: "a", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        let b = app.add(name: "b", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        app.transition(a, to: .executing, time: .seconds(1))
        app.transition(a, to: .finished, outcome: .failed, message: "x", time: .seconds(2))
        let welcome =
            #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"observer","epoch":"e1","seq":4,"resumed":false}"#
        var viewer = ViewerCore()
        let keyframe = KeyframeEncoder.lines(app.snapshot(time: .seconds(3)), seq: 4).split(separator: "\n")
        let lines = [welcome] + keyframe.map(String.init)
        _ = lines.flatMap { viewer.receive(Array($0.utf8)) }
        #expect(viewer.isLive)
        #expect(viewer.builder.snapshot().history.values(.failed, endingAt: .seconds(3), count: 4) == [0, 0, 1, 0])
        _ = viewer.receive(
            Array(#"{"t":4.5,"event":"state","id":2,"from":"ready","to":"executing","seq":5}"#.utf8))
        let picture = viewer.builder.snapshot()
        #expect(picture.history.values(.running, endingAt: .seconds(4), count: 5) == [0, 1, 0, 0, 1])
        _ = b
    }
}
