import OpsMonitor
@testable import OpsWire
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer

@Suite struct ViewerCoreTests {
    private func feed(_ core: inout ViewerCore, _ lines: [String]) -> [ViewerCore.Output] {
        lines.flatMap { core.receive(Array($0.utf8)) }
    }

    private let welcome =
        #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"observer","epoch":"e1","seq":2,"resumed":false}"#
    private let snapshot = [
        #"{"t":1.0,"event":"snapshot_begin","seq":2,"suspended":false,"limit":2,"waiting":0,"ready":1,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"bytes":0,"total":100,"rate":0,"evicted":0,"operations":1,"log":0}"#,
        #"{"event":"snapshot_op","id":1,"op":"one","kind":"download","state":"ready","bytes":0,"total":100,"rate":0,"retries":0,"after":[],"added":0.5,"history":[{"t":0.5,"state":"ready"}]}"#,
        #"{"event":"snapshot_end","seq":2}"#,
    ]

    @Test func appliesDeltasInOrderAndResyncsOnAGap() {
        var core = ViewerCore()
        #expect(
            core.hello(role: .observer, token: nil)
                == #"{"cmd":"hello","min":1,"max":1,"client":"opsdash","role":"observer"}"# + "\n")
        _ = feed(&core, [welcome] + snapshot)
        #expect(core.isLive && core.lastSeq == 2)
        #expect(core.builder.snapshot().operation(id: 1)?.name == "one")
        _ = feed(&core, [#"{"t":2,"event":"state","id":1,"from":"ready","to":"executing","seq":3}"#])
        #expect(core.builder.snapshot().counts.executing == 1)
        let gap = feed(&core, [#"{"t":3,"event":"progress","id":1,"bytes":50,"total":100,"rate":5,"seq":5}"#])
        guard case .send(let line)? = gap.first else { Issue.record("no resync asked"); return }
        #expect(line == #"{"cmd":"resync"}"# + "\n")
        #expect(!core.isLive)
        #expect(core.builder.snapshot().completedBytes == 0, "nothing applied past a gap")
        // Deltas are ignored until the fresh snapshot; the last picture stays meanwhile.
        _ = feed(&core, [#"{"t":3,"event":"progress","id":1,"bytes":60,"total":100,"rate":5,"seq":6}"#])
        #expect(core.builder.snapshot().counts.executing == 1)
        let fresh = feed(&core, snapshot.map { $0.replacingOccurrences(of: #""seq":2"#, with: #""seq":6"#) })
        guard case .keyframe(let previous, let current)? = fresh.last else { Issue.record("no keyframe"); return }
        #expect(previous?.counts.executing == 1)
        #expect(current.counts.ready == 1)
        #expect(core.lastSeq == 6 && core.isLive)
    }

    @Test func skippedProgressKeepsTheSequenceAndHeartbeatsRevealLoss() {
        var core = ViewerCore()
        _ = feed(&core, [welcome] + snapshot)
        _ = feed(
            &core,
            [
                #"{"event":"skipped","from":3,"to":9}"#,
                #"{"t":2,"event":"progress","id":1,"bytes":70,"total":100,"rate":5,"seq":10}"#,
            ])
        #expect(core.lastSeq == 10)
        #expect(core.builder.snapshot().completedBytes == 70)
        #expect(feed(&core, [#"{"t":9.5,"event":"heartbeat","seq":10}"#]).isEmpty)
        #expect(core.builder.snapshot().time == .milliseconds(9_500), "a heartbeat moves the clock")
        let lost = feed(&core, [#"{"t":10,"event":"heartbeat","seq":12}"#])
        #expect(lost.count == 2, "a heartbeat ahead of the last delta means lines were lost")
    }

    @Test func aNewEpochStartsCleanAndTheSameEpochResumes() {
        var core = ViewerCore()
        _ = feed(&core, [welcome] + snapshot)
        #expect(core.hello(role: nil, token: "t").contains(#""resume":{"epoch":"e1","seq":2}"#))
        _ = feed(&core, [welcome.replacingOccurrences(of: #""resumed":false"#, with: #""resumed":true"#)])
        #expect(core.isLive, "resumed inside the ring: no snapshot needed")
        _ = feed(&core, [welcome.replacingOccurrences(of: "e1", with: "e2")])
        #expect(!core.isLive)
        #expect(core.builder.snapshot().operations.isEmpty, "a new epoch starts clean")
        #expect(core.lastSeq == nil)
    }

    @Test func repliesErrorsAuditsAndByeComeOut() {
        var core = ViewerCore()
        _ = feed(&core, [welcome] + snapshot)
        let outputs = feed(
            &core,
            [
                #"{"event":"reply","id":"c1","ok":false,"error":"forbidden","message":"read-only viewer"}"#,
                #"{"t":1,"event":"audit","seq":3,"by":"uid 0","cmd":"suspend","text":"uid 0 paused the queue"}"#,
                #"{"event":"bye","reason":"app shutting down"}"#,
                #"{"event":"pong","seq":3}"#,
                "garbage",
            ])
        #expect(outputs.count == 4)
        if case .reply(let request, let ok, let code, _, _) = outputs[0] {
            #expect(request == "c1" && !ok && code == "forbidden")
        } else {
            Issue.record("no reply")
        }
        if case .audit(let text) = outputs[1] {
            #expect(text == "uid 0 paused the queue")
        } else {
            Issue.record("no audit")
        }
        #expect(core.builder.snapshot().log.last?.text == "uid 0 paused the queue", "audits reach the event log")
        #expect(core.builder.snapshot().log.last?.kind == .action)
        if case .bye(let reason) = outputs[2] { #expect(reason == "app shutting down") } else { Issue.record("no bye") }
        if case .error(let code, _) = outputs[3] { #expect(code == "bad_line") } else { Issue.record("no error") }
    }

    @Test func atEqualTimesAFinishComesBeforeAStart() {
        func op(_ id: Int, started: Duration, finished: Duration?) -> OperationSnapshot {
            var history = [
                StateChange(time: .zero, lifecycle: .ready), StateChange(time: started, lifecycle: .executing),
            ]
            if let finished { history.append(StateChange(time: finished, lifecycle: .finished, outcome: .succeeded)) }
            return OperationSnapshot(
                id: id, name: "o\(id)", lifecycle: finished == nil ? .executing : .finished,
                outcome: finished == nil ? nil : .succeeded, history: history)
        }
        // #1 starts when #2 finishes, at the same millisecond.
        let events = SnapshotEvents.events(
            from: nil,
            to: QueueSnapshot(
                operations: ChunkedArray([
                    op(1, started: .seconds(2), finished: nil), op(2, started: .seconds(1), finished: .seconds(2)),
                ])))
        let order = events.compactMap { event -> String? in
            if case .state(_, let id, _, let to, _, _) = event, to != .ready { return "\(id)\(to.rawValue)" }
            return nil
        }
        #expect(order == ["2executing", "2finished", "1executing"])
    }

    @Test func aSnapshotReadsAsTheEventsThatLeadToIt() {
        let op = OperationSnapshot(
            id: 1, name: "one", kind: .download, lifecycle: .finished, outcome: .succeeded, completedUnits: 100,
            totalUnits: 100, addedAt: .seconds(1), startedAt: .seconds(2), finishedAt: .seconds(3),
            history: [
                StateChange(time: .seconds(1), lifecycle: .ready),
                StateChange(time: .seconds(2), lifecycle: .executing),
                StateChange(time: .seconds(3), lifecycle: .finished, outcome: .succeeded),
            ])
        let events = SnapshotEvents.events(
            from: nil,
            to: QueueSnapshot(time: .seconds(4), maxConcurrentOperationCount: 2, operations: ChunkedArray([op])))
        #expect(events.count == 6)
        #expect(events.map(\.time) == [.zero, .seconds(1), .seconds(1), .seconds(2), .seconds(3), .seconds(3)])
        guard case .state(_, 1, .executing, .finished, .succeeded, nil) = events[5] else {
            Issue.record("last event is \(events[5])")
            return
        }
    }

    @Test func aSnapshotsEventsCarryEachOperationsUnitAndRetryWait() {
        let tiles = OperationSnapshot(
            id: 1, name: "thumb", kind: .process, unit: .items, lifecycle: .executing, completedUnits: 3,
            totalUnits: 8, addedAt: .seconds(1), startedAt: .seconds(1),
            history: [
                StateChange(time: .seconds(1), lifecycle: .ready),
                StateChange(time: .seconds(1), lifecycle: .executing),
            ])
        var waiting = OperationSnapshot(
            id: 2, name: "photo", kind: .download, lifecycle: .executing, totalUnits: 100, retries: 1,
            nextAttemptAt: .seconds(6), addedAt: .seconds(1), startedAt: .seconds(2),
            history: [
                StateChange(time: .seconds(1), lifecycle: .ready),
                StateChange(time: .seconds(2), lifecycle: .executing),
            ])
        let before = QueueSnapshot(time: .seconds(4), operations: ChunkedArray([tiles, waiting]))
        let events = SnapshotEvents.events(from: nil, to: before)
        #expect(
            events.contains(
                .added(
                    time: .seconds(1), id: 1, name: "thumb", kind: .process, unit: .items, totalBytes: 8,
                    dependencies: [])))
        #expect(
            events.contains(
                .progress(
                    time: .seconds(4), id: 2, completedBytes: 0, totalBytes: 100, bytesPerSecond: 0, retries: 1,
                    nextAttemptAt: .seconds(6))),
            "a wait with nothing done yet still reaches the viewer")
        waiting.nextAttemptAt = nil
        let after = SnapshotEvents.events(
            from: before, to: QueueSnapshot(time: .seconds(7), operations: ChunkedArray([tiles, waiting])))
        #expect(
            after == [
                .progress(
                    time: .seconds(7), id: 2, completedBytes: 0, totalBytes: 100, bytesPerSecond: 0, retries: 1,
                    nextAttemptAt: nil)
            ], "the wait's end too")
    }
}
