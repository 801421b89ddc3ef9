import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor
@testable import OpsWire

/// A scenario-like run on a manual clock: downloads, uploads and processing steps with
/// dependencies, failures, retries, a cancellation, a pause and a limit change.
private final class Workload {
    let clock = ManualClock()
    let queue = ObservableOperationQueue()
    let monitor: QueueMonitor
    let ops: [SimulatedWorkOperation]

    init(limits: MonitorStore.Limits) {
        queue.maxConcurrentOperationCount = 3
        queue.isSuspended = true
        monitor = QueueMonitor(queue: queue, clock: clock, limits: limits, recordEvents: true)
        var ops: [SimulatedWorkOperation] = []
        for index in 0..<100 {
            let failure = index % 7 == 3 ? FailurePlan(atFraction: 0.5, message: "connection reset") : nil
            let plan = TransferPlan(
                totalBytes: Int64(1_000 + index * 250), bandwidth: 4_000, failure: failure,
                maxRetries: index % 14 == 3 ? 1 : 0, retryBackoff: .milliseconds(200))
            let op: SimulatedWorkOperation
            switch index % 3 {
            case 0: op = DownloadOperation(name: "get-\(index)", plan: plan, clock: clock)
            case 1: op = UploadOperation(name: "put-\(index)", plan: plan, clock: clock)
            default:
                op = ProcessOperation(
                    name: "resize-\(index)", duration: .milliseconds(300), failure: failure, clock: clock)
            }
            if index >= 5, index % 4 == 1 { op.addDependency(ops[index - 5]) }
            ops.append(op)
        }
        self.ops = ops
    }

    func start() {
        queue.addOperations(ops, waitUntilFinished: false)
        monitor.setMaxConcurrentOperationCount(4)
        monitor.setSuspended(false)
    }

    /// Drives the clock until every operation finished: time moves only while the queue is settled
    /// (see `ManualClock.run`), with `each` called between advances.
    func runToEnd(step: Duration = .milliseconds(100), _ each: () -> Void = {}) -> Bool {
        runUntil(step: step, each) { monitor.snapshot().counts.finished == ops.count }
    }

    /// Drives the clock until `done` holds.
    func runUntil(step: Duration, _ each: () -> Void = {}, _ done: () -> Bool) -> Bool {
        clock.run(queue, step: step, each: each, until: done)
    }
}

/// Compares everything a rebuilt picture must reproduce, field by field.
private func expectSame(
    _ rebuilt: QueueSnapshot, _ original: QueueSnapshot,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(rebuilt.counts == original.counts, sourceLocation: sourceLocation)
    #expect(rebuilt.completedBytes == original.completedBytes, sourceLocation: sourceLocation)
    #expect(rebuilt.totalBytes == original.totalBytes, sourceLocation: sourceLocation)
    // The overall rate is a window over the store's clock, read at each picture's own time (the
    // last event's, the monitor's now): close, not equal.
    #expect(
        abs(rebuilt.bytesPerSecond - original.bytesPerSecond) <= 0.1 * max(1, original.bytesPerSecond),
        "\(rebuilt.bytesPerSecond) vs \(original.bytesPerSecond)", sourceLocation: sourceLocation)
    #expect(rebuilt.isSuspended == original.isSuspended, sourceLocation: sourceLocation)
    #expect(rebuilt.maxConcurrentOperationCount == original.maxConcurrentOperationCount, sourceLocation: sourceLocation)
    #expect(rebuilt.evictedCount == original.evictedCount, sourceLocation: sourceLocation)
    #expect(rebuilt.operations.map(\.id) == original.operations.map(\.id), sourceLocation: sourceLocation)
    for (mine, theirs) in zip(rebuilt.operations, original.operations) {
        #expect(mine == theirs, "operation #\(theirs.id)", sourceLocation: sourceLocation)
    }
    #expect(rebuilt.log == original.log, sourceLocation: sourceLocation)
}

@Suite(.ownThread) struct EventSnapshotBuilderTests {
    @Test func rebuildsTheMonitorsSnapshotFromItsEvents() {
        let limits = MonitorStore.Limits(finishedOperations: 8, logEntries: 10_000, historyPerOperation: 3)
        let run = Workload(limits: limits)
        var builder = EventSnapshotBuilder(limits: limits, isSuspended: true, maxConcurrentOperationCount: 3)
        run.start()
        var compared = 0
        let finished = run.runToEnd {
            // Compare mid-run too, at points where events and snapshot are taken together.
            let (events, snapshot) = run.monitor.drainEventsAndSnapshot()
            for event in events { builder.apply(event) }
            if compared < 3, snapshot.counts.executing > 0 {
                compared += 1
                expectSame(builder.snapshot(), snapshot)
            }
        }
        #expect(finished)
        let (events, snapshot) = run.monitor.drainEventsAndSnapshot()
        for event in events { builder.apply(event) }
        #expect(compared == 3)
        expectSame(builder.snapshot(), snapshot)
        #expect(snapshot.counts.failed > 0 && snapshot.counts.succeeded > 0 && snapshot.evictedCount > 0)
        #expect(snapshot.operations.contains { $0.retries > 0 }, "the workload retries")
        #expect(snapshot.operations.contains { !$0.dependencies.isEmpty })
    }

    @Test func versionIncreasesOnlyWhenSomethingChanged() {
        var builder = EventSnapshotBuilder()
        let start = builder.version
        #expect(builder.snapshot(ifChangedSince: start) == nil)
        builder.apply(.added(time: .zero, id: 1, name: "a", kind: .download, totalBytes: 10, dependencies: []))
        builder.apply(.state(time: .zero, id: 1, from: nil, to: .ready, outcome: nil, message: nil))
        let added = builder.version
        #expect(added != start)
        #expect(builder.snapshot(ifChangedSince: start)?.operation(id: 1)?.name == "a")
        builder.apply(.state(time: .seconds(1), id: 1, from: .ready, to: .ready, outcome: nil, message: nil))
        #expect(builder.version == added, "a repeated state changes nothing")
        builder.apply(
            .progress(time: .seconds(2), id: 1, completedBytes: 5, totalBytes: 10, bytesPerSecond: 5, retries: 0))
        #expect(builder.version != added)
        #expect(builder.snapshot().completedBytes == 5)
        #expect(builder.time == .seconds(2))
    }

    @Test func rebuildsFromHeadlessLinesUpToTheirRounding() throws {
        let limits = MonitorStore.Limits()
        let run = Workload(limits: limits)
        run.start()
        #expect(run.runToEnd())
        let (events, snapshot) = run.monitor.drainEventsAndSnapshot()
        var encoder = JSONLinesEncoder(progressInterval: .zero)
        var text = ""
        for event in events { encoder.encode(event, into: &text) }
        text += JSONLinesEncoder.summary(snapshot, duration: snapshot.time, interrupted: false)
        let decoder = JSONLinesDecoder()
        var builder = EventSnapshotBuilder(limits: limits, isSuspended: true, maxConcurrentOperationCount: 3)
        var summary: RunSummary?
        for line in text.split(separator: "\n") {
            let decoded = try decoder.decode(line)
            if case .summary(let found) = decoded.line { summary = found }
            try builder.apply(decoded.line)
        }
        let rebuilt = builder.snapshot()
        #expect(rebuilt.counts == snapshot.counts)
        #expect(rebuilt.completedBytes == snapshot.completedBytes)
        #expect(rebuilt.totalBytes == snapshot.totalBytes)
        #expect(rebuilt.operations.map(\.name) == snapshot.operations.map(\.name))
        #expect(rebuilt.operations.map(\.outcome) == snapshot.operations.map(\.outcome))
        #expect(rebuilt.operations.map(\.message) == snapshot.operations.map(\.message))
        #expect(rebuilt.operations.map(\.history.count) == snapshot.operations.map(\.history.count))
        #expect(rebuilt.operations.map(\.retryLog) == snapshot.operations.map(\.retryLog), "each retry's error")
        #expect(rebuilt.operations.contains { !$0.retryLog.isEmpty })
        #expect(summary?.counts == snapshot.counts)
        #expect(summary?.completedBytes == snapshot.completedBytes)
    }

    @Test func aKeyframeThenLaterEventsRebuildTheSamePicture() throws {
        let limits = MonitorStore.Limits(finishedOperations: 8, logEntries: 10_000, historyPerOperation: 16)
        let run = Workload(limits: limits)
        run.start()
        // Run part way, then join late from a keyframe.
        #expect(run.runUntil(step: .milliseconds(50)) { run.monitor.snapshot().counts.finished >= 30 })
        let (_, middle) = run.monitor.drainEventsAndSnapshot()
        let keyframe = KeyframeEncoder.lines(middle, seq: 41)
        let decoder = JSONLinesDecoder()
        var builder = EventSnapshotBuilder(limits: limits)
        var lines = keyframe.split(separator: "\n")
        let end = lines.removeLast()
        for line in lines { try builder.apply(decoder.decode(line).line) }
        #expect(builder.isReadingKeyframe)
        let last = try decoder.decode(end)
        #expect(last.line == .keyframeEnd(seq: 41))
        try builder.apply(last.line)
        #expect(!builder.isReadingKeyframe)
        #expect(builder.keyframeSeq == 41)
        expectSame(builder.snapshot(), middle)
        #expect(builder.snapshot().time == middle.time)

        #expect(
            run.runToEnd {
                for event in run.monitor.drainEvents() { builder.apply(event) }
            })
        let (events, final) = run.monitor.drainEventsAndSnapshot()
        for event in events { builder.apply(event) }
        expectSame(builder.snapshot(), final)
    }

    @Test func recordingCanStartLateFromAConsistentPicture() {
        let run = Workload(limits: .init())
        run.monitor.setRecordingEvents(false)
        #expect(!run.monitor.isRecordingEvents)
        run.start()
        #expect(run.runUntil(step: .milliseconds(100)) { run.monitor.snapshot().counts.finished >= 20 })
        #expect(run.monitor.drainEvents().isEmpty, "nothing recorded while off")
        var builder = EventSnapshotBuilder()
        builder.load(run.monitor.setRecordingEvents(true))
        #expect(run.runToEnd { for event in run.monitor.drainEvents() { builder.apply(event) } })
        let (events, final) = run.monitor.drainEventsAndSnapshot()
        for event in events { builder.apply(event) }
        #expect(builder.snapshot().counts == final.counts)
        #expect(builder.snapshot().completedBytes == final.completedBytes)
        #expect(Array(builder.snapshot().operations.map(\.lifecycle)) == Array(final.operations.map(\.lifecycle)))
    }

    @Test func keyframeLinesOutOfOrderAreRefused() throws {
        let decoder = JSONLinesDecoder()
        var builder = EventSnapshotBuilder()
        let snapshot = QueueSnapshot(
            counts: StateCounts(ready: 1),
            operations: ChunkedArray([OperationSnapshot(id: 1, name: "a")]))
        let lines = KeyframeEncoder.lines(snapshot, seq: 7).split(separator: "\n").map(String.init)
        #expect(throws: EventLineError.self) { try builder.apply(decoder.decode(lines[1]).line) }
        try builder.apply(decoder.decode(lines[0]).line)
        #expect(throws: EventLineError.self) {
            try builder.apply(
                .event(
                    .queue(time: .zero, isSuspended: true, maxConcurrentOperationCount: 1, counts: .init(), reason: "x")
                ))
        }
        #expect(throws: EventLineError.self) { try builder.apply(.keyframeEnd(seq: 8)) }
        #expect(throws: EventLineError.self) { try builder.apply(.keyframeEnd(seq: 7)) }
    }

    /// Found by FuzzViewer: a peer's "state" line with no "from" (an added operation) for an id
    /// below one already seen was appended after it, and the picture's keyframe (an attach
    /// recording writes them) could not be read back ("snapshot_op #2 out of order").
    @Test func anAddedOperationBelowAnIdSeenIsIgnoredAndKeyframesReadBack() throws {
        var builder = EventSnapshotBuilder()
        for id in [1, 4] {
            builder.apply(.state(time: .zero, id: id, from: nil, to: .ready, outcome: nil, message: nil))
        }
        builder.apply(.state(time: .seconds(1), id: 2, from: nil, to: .finished, outcome: .succeeded, message: nil))
        let snapshot = builder.snapshot()
        #expect(snapshot.operations.map(\.id) == [1, 4])
        #expect(snapshot.counts.total == 2)
        var rebuilt = EventSnapshotBuilder()
        let decoder = JSONLinesDecoder()
        for line in KeyframeEncoder.lines(snapshot, seq: 3).split(separator: "\n") {
            try rebuilt.apply(decoder.decode(String(line)).line)
        }
        #expect(rebuilt.snapshot().operations.map(\.id) == [1, 4])
    }
}
