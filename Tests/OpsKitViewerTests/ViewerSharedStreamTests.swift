import OpsMonitor
import Testing
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// The viewer core's side of the shared-memory stream: the offer is read from `welcome`, a
/// position is taken only when it continues the last applied delta, and falling behind the
/// stream asks for a snapshot.
@Suite struct ViewerSharedStreamTests {
    private func feed(_ core: inout ViewerCore, _ lines: [String]) -> [ViewerCore.Output] {
        lines.flatMap { core.receive(Array($0.utf8)) }
    }

    private let welcome =
        #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"observer","epoch":"e1","seq":2,"resumed":false,"shm":"/proc/7/fd/9"}"#
    private let snapshot = [
        #"{"t":1.0,"event":"snapshot_begin","seq":2,"suspended":false,"limit":2,"waiting":0,"ready":1,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"bytes":0,"total":100,"rate":0,"evicted":0,"operations":1,"log":0}"#,
        #"{"event":"snapshot_op","id":1,"op":"one","kind":"download","state":"ready","bytes":0,"total":100,"rate":0,"retries":0,"after":[],"added":0.5,"history":[{"t":0.5,"state":"ready"}]}"#,
        #"{"event":"snapshot_end","seq":2}"#,
    ]

    @Test func aSnapshotInTheStreamIsReadFromWhereItStarts() {
        var core = ViewerCore()
        _ = feed(&core, [welcome])
        let line = #"{"event":"shm","position":512,"seq":2,"snapshot":true}"#
        guard case .sharedStream(let position)? = feed(&core, [line]).first else {
            Issue.record("a viewer waiting for a snapshot reads it from the stream")
            return
        }
        #expect(position == 512)
        _ = feed(&core, snapshot)
        #expect(core.isLive && core.lastSeq == 2)
        #expect(feed(&core, [line]).isEmpty, "ignored by a viewer that is not waiting for a snapshot")
    }

    @Test func aPositionThatContinuesTheLastDeltaIsTaken() {
        var core = ViewerCore()
        let outputs = feed(&core, [welcome])
        guard case .welcome(let said)? = outputs.first else {
            Issue.record("no welcome")
            return
        }
        #expect(said.sharedStream == "/proc/7/fd/9")
        _ = feed(&core, snapshot)
        let told = feed(&core, [#"{"event":"shm","position":4096,"seq":2}"#])
        guard case .sharedStream(let position)? = told.first else {
            Issue.record("no position: \(told)")
            return
        }
        #expect(position == 4_096)
        // Deltas from the stream go through `receive` like socket lines.
        _ = feed(&core, [#"{"t":2,"event":"state","id":1,"from":"ready","to":"executing","seq":3}"#])
        #expect(core.lastSeq == 3 && core.builder.snapshot().counts.executing == 1)
    }

    @Test func aPositionOutOfStepAsksForASnapshot() {
        var core = ViewerCore()
        _ = feed(&core, [welcome] + snapshot)
        let outputs = feed(&core, [#"{"event":"shm","position":0,"seq":5}"#])
        guard case .send(let line)? = outputs.first else {
            Issue.record("no resync: \(outputs)")
            return
        }
        #expect(line == #"{"cmd":"resync"}"# + "\n")
        #expect(!core.isLive)
        #expect(feed(&core, [#"{"event":"shm","position":0,"seq":2}"#]).isEmpty, "ignored while resyncing")
    }

    @Test func fallingBehindTheStreamAsksForASnapshot() {
        var core = ViewerCore()
        _ = feed(&core, [welcome] + snapshot)
        let outputs = core.sharedStreamLagged()
        guard case .send(let line)? = outputs.first, case .resyncing(let reason)? = outputs.last else {
            Issue.record("no resync: \(outputs)")
            return
        }
        #expect(line == #"{"cmd":"resync"}"# + "\n")
        #expect(reason == "fell behind the shared stream")
        #expect(!core.isLive)
    }

    @Test func aResyncWaitsUntilTheStreamCalmsDown() {
        var cursor = SharedStreamCursor()
        cursor.lastEnd = 1_000
        let racingLook = cursor.calmedDown(end: 1_000 + 1_048_576, capacity: 8 << 20)
        #expect(!racingLook, "an eighth of the ring in 10 ms")
        let calmLook = cursor.calmedDown(end: 1_000 + 1_048_576 + 1_048_575, capacity: 8 << 20)
        #expect(calmLook)
        var racing = SharedStreamCursor()
        var end: UInt64 = 4_096
        var looks = 0
        while !racing.calmedDown(end: end, capacity: 4_096) {
            end += 4_096
            looks += 1
        }
        #expect(looks == SharedStreamCursor.maximumLooksWaited, "a stream that never calms down: ask after 2 s")
    }
}
