import Testing
@testable import OpsMonitor
@testable import OpsWire

/// A publisher's store and a viewer that joins it mid-run over the wire (a keyframe, then
/// headless lines): whatever the viewer rebuilds must count what the publisher counts.
private struct Wire {
    var publisher = MonitorStore()
    var viewer = EventSnapshotBuilder()
    private var encoder = JSONLinesEncoder(progressInterval: .zero)
    private let decoder = JSONLinesDecoder()
    private var seq: UInt64 = 0

    init() {
        publisher.recordsEvents = true
    }

    /// The viewer joins: the publisher's picture at `time` as keyframe lines, decoded.
    mutating func join(at time: Duration) throws {
        seq += UInt64(publisher.drainEvents().count)
        let lines = KeyframeEncoder.lines(publisher.snapshot(time: time), seq: seq)
        for line in lines.split(separator: "\n") { try viewer.apply(decoder.decode(line).line) }
    }

    /// Sends the publisher's new events to the viewer as headless lines.
    mutating func deliver() throws {
        var text = ""
        for event in publisher.drainEvents() { encoder.encode(event, into: &text) }
        for line in text.split(separator: "\n") { try viewer.apply(decoder.decode(line).line) }
    }
}

private func expectSameCounting(
    _ viewer: QueueSnapshot, _ publisher: QueueSnapshot, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(viewer.completedBytes == publisher.completedBytes, sourceLocation: sourceLocation)
    #expect(viewer.totalBytes == publisher.totalBytes, sourceLocation: sourceLocation)
    #expect(viewer.counts == publisher.counts, sourceLocation: sourceLocation)
    #expect(
        Array(viewer.operations.map(\.unit)) == Array(publisher.operations.map(\.unit)), sourceLocation: sourceLocation)
    #expect(
        Array(viewer.operations.map(\.completedUnits)) == Array(publisher.operations.map(\.completedUnits)),
        sourceLocation: sourceLocation)
    #expect(
        Array(viewer.operations.map(\.nextAttemptAt)) == Array(publisher.operations.map(\.nextAttemptAt)),
        sourceLocation: sourceLocation)
}

@Suite struct WireUnitAndRetryTests {
    @Test func aViewerJoiningWhileAnItemsOperationRunsCountsWhatThePublisherCounts() throws {
        var wire = Wire()
        let photo = wire.publisher.add(
            name: "photo", kind: .download, unit: .bytes, lifecycle: .ready, totalBytes: 1_000, dependencies: [],
            time: .zero)
        let thumb = wire.publisher.add(
            name: "thumb", kind: .process, unit: .items, lifecycle: .ready, totalBytes: 8, dependencies: [],
            time: .zero)
        for id in [photo, thumb] { wire.publisher.transition(id, to: .executing, time: .milliseconds(100)) }
        wire.publisher.progress(photo, completedBytes: 400, bytesPerSecond: 400, retries: 0, time: .seconds(1))
        wire.publisher.progress(thumb, completedBytes: 3, bytesPerSecond: 3, retries: 0, time: .seconds(1))
        #expect(wire.publisher.completedBytes == 400, "tiles are not bytes")

        try wire.join(at: .seconds(1))
        expectSameCounting(wire.viewer.snapshot(), wire.publisher.snapshot(time: .seconds(1)))
        #expect(wire.viewer.snapshot().operation(id: thumb)?.unit == .items)

        // A third operation, announced by an `added` line, counting items too.
        let pages = wire.publisher.add(
            name: "pages", kind: .other, unit: .items, lifecycle: .ready, totalBytes: 5, dependencies: [],
            time: .seconds(2))
        wire.publisher.transition(pages, to: .executing, time: .seconds(2))
        wire.publisher.progress(thumb, completedBytes: 6, bytesPerSecond: 3, retries: 0, time: .seconds(2))
        wire.publisher.progress(pages, completedBytes: 2, bytesPerSecond: 2, retries: 0, time: .seconds(2))
        wire.publisher.progress(photo, completedBytes: 900, bytesPerSecond: 500, retries: 0, time: .seconds(2))
        try wire.deliver()
        expectSameCounting(wire.viewer.snapshot(), wire.publisher.snapshot(time: .seconds(2)))

        for id in [photo, thumb, pages] {
            wire.publisher.transition(id, to: .finished, outcome: .succeeded, time: .seconds(3))
        }
        try wire.deliver()
        let end = wire.publisher.snapshot(time: .seconds(3))
        expectSameCounting(wire.viewer.snapshot(), end)
        #expect(end.completedBytes == 1_000 && end.totalBytes == 1_000)
        #expect(wire.viewer.snapshot().operation(id: pages)?.unit == .items)
    }

    @Test func aRetryBackOffReachesTheViewerAndEnds() throws {
        var wire = Wire()
        let photo = wire.publisher.add(
            name: "photo", kind: .download, lifecycle: .ready, totalBytes: 1_000, dependencies: [], time: .zero)
        wire.publisher.transition(photo, to: .executing, time: .zero)
        wire.publisher.progress(photo, completedBytes: 500, bytesPerSecond: 500, retries: 0, time: .seconds(1))
        // The attempt failed; the next starts at 4.25 s.
        wire.publisher.progress(
            photo, completedBytes: 500, bytesPerSecond: 0, retries: 1, nextAttemptAt: .milliseconds(4_250),
            time: .milliseconds(1_250))
        try wire.deliver()
        #expect(wire.viewer.snapshot().operation(id: photo)?.nextAttemptAt == .milliseconds(4_250))
        expectSameCounting(wire.viewer.snapshot(), wire.publisher.snapshot(time: .seconds(2)))

        // A viewer joining during the back-off gets it from the keyframe.
        var late = Wire()
        late.publisher = wire.publisher
        try late.join(at: .seconds(2))
        #expect(late.viewer.snapshot().operation(id: photo)?.nextAttemptAt == .milliseconds(4_250))

        wire.publisher.progress(photo, completedBytes: 520, bytesPerSecond: 20, retries: 1, time: .milliseconds(4_300))
        try wire.deliver()
        #expect(wire.viewer.snapshot().operation(id: photo)?.nextAttemptAt == nil, "the next attempt runs")
        expectSameCounting(wire.viewer.snapshot(), wire.publisher.snapshot(time: .seconds(5)))
    }

    @Test func theEncoderWritesUnitAndNextAndNeverHoldsBackTheEndOfAWait() {
        var encoder = JSONLinesEncoder(progressInterval: .seconds(1))
        var out = ""
        encoder.encode(
            .added(time: .zero, id: 1, name: "t", kind: .process, unit: .items, totalBytes: 8, dependencies: []),
            into: &out)
        encoder.encode(
            .progress(time: .zero, id: 1, completedBytes: 2, totalBytes: 8, bytesPerSecond: 2, retries: 0), into: &out)
        encoder.encode(
            .progress(
                time: .milliseconds(100), id: 1, completedBytes: 2, totalBytes: 8, bytesPerSecond: 0, retries: 1,
                nextAttemptAt: .milliseconds(2_345)), into: &out)
        encoder.encode(
            .progress(time: .milliseconds(200), id: 1, completedBytes: 2, totalBytes: 8, bytesPerSecond: 0, retries: 1),
            into: &out)
        #expect(
            out.split(separator: "\n") == [
                #"{"t":0.000,"event":"added","id":1,"op":"t","kind":"process","unit":"items","total":8,"after":[]}"#,
                #"{"t":0.000,"event":"progress","id":1,"op":"t","bytes":2,"total":8,"rate":2,"retries":0}"#,
                #"{"t":0.100,"event":"progress","id":1,"op":"t","bytes":2,"total":8,"rate":0,"retries":1,"next":2.345}"#,
                #"{"t":0.200,"event":"progress","id":1,"op":"t","bytes":2,"total":8,"rate":0,"retries":1}"#,
            ])
    }

    /// Lines written before `unit` and `next` existed read as bytes with no back-off.
    @Test func linesWithoutUnitOrNextStillDecode() throws {
        let decoder = JSONLinesDecoder()
        let added = try decoder.decode(
            #"{"t":0.000,"event":"added","id":1,"op":"a","kind":"download","total":10,"after":[]}"#)
        #expect(
            added.line
                == .event(
                    .added(
                        time: .zero, id: 1, name: "a", kind: .download, unit: .bytes, totalBytes: 10, dependencies: []))
        )
        let progress = try decoder.decode(
            #"{"t":1.000,"event":"progress","id":1,"op":"a","bytes":4,"total":10,"rate":4,"retries":0}"#)
        #expect(
            progress.line
                == .event(
                    .progress(
                        time: .seconds(1), id: 1, completedBytes: 4, totalBytes: 10, bytesPerSecond: 4, retries: 0,
                        nextAttemptAt: nil)))
        let op = try decoder.decode(
            #"{"event":"snapshot_op","id":1,"op":"a","kind":"download","state":"executing","bytes":4,"total":10,"rate":0,"retries":0,"after":[],"added":0.5,"history":[]}"#
        )
        guard case .keyframeOperation(let snapshot) = op.line else {
            Issue.record("not a snapshot_op: \(op.line)")
            return
        }
        #expect(snapshot.unit == .bytes)
        #expect(snapshot.nextAttemptAt == nil)
        #expect(throws: EventLineError.self) {
            try decoder.decode(#"{"t":0,"event":"added","id":1,"op":"a","kind":"download","unit":"pages","total":1}"#)
        }
    }
}
