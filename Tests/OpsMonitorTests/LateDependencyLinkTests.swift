import Foundation
import OpsKit
import OpsKitTesting
@testable import OpsWire
import Testing
@testable import OpsMonitor

/// An operation whose dependency the queue takes after it (later in the same batch, or in a
/// later `addOperations`) gets the link in its snapshot and as a `linked` event, so everything
/// built from events (headless lines, recordings, `opsdash attach`) shows the dependency too.
@Suite(.ownThread) struct LateDependencyLinkTests {
    /// Adds `upload` (depending on `download`) before `download`, in one batch or two, and
    /// returns the monitor's events and snapshot.
    private func run(oneBatch: Bool) -> (events: [MonitorEvent], snapshot: QueueSnapshot) {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock(), recordEvents: true)
        let download = ClosureOperation(name: "download") {}
        let upload = ClosureOperation(name: "upload") {}
        upload.addDependency(download)
        if oneBatch {
            queue.addOperations([upload, download], waitUntilFinished: false)
        } else {
            queue.addOperations([upload], waitUntilFinished: false)
            queue.addOperations([download], waitUntilFinished: false)
        }
        let result = monitor.drainEventsAndSnapshot()
        monitor.stop()
        queue.cancelAllOperations()
        queue.isSuspended = false
        return result
    }

    @Test(arguments: [true, false]) func theLinkIsAnEventAndInTheSnapshot(oneBatch: Bool) throws {
        let (events, snapshot) = run(oneBatch: oneBatch)
        #expect(snapshot.operation(id: 1)?.name == "upload")
        #expect(snapshot.operation(id: 1)?.dependencies == [2])
        #expect(events.contains(.linked(time: .zero, id: 1, dependencies: [2])))
        let addedUpload = events.first {
            if case .added(_, 1, _, _, _, _, _) = $0 { return true }
            return false
        }
        #expect(
            addedUpload
                == .added(
                    time: .zero, id: 1, name: "upload", kind: .other, unit: .bytes, totalBytes: 0, dependencies: []))
        // The link comes after the dependency's own `added` line.
        let linkedAt = try #require(events.firstIndex { if case .linked = $0 { true } else { false } })
        let dependencyAddedAt = try #require(
            events.firstIndex { if case .added(_, 2, _, _, _, _, _) = $0 { true } else { false } })
        #expect(dependencyAddedAt < linkedAt)
    }

    @Test func aPictureRebuiltFromTheEventsOrTheirLinesShowsTheLink() throws {
        let (events, snapshot) = run(oneBatch: true)
        var builder = EventSnapshotBuilder()
        for event in events { builder.apply(event) }
        #expect(builder.snapshot().operation(id: 1)?.dependencies == [2])
        #expect(builder.snapshot().operations.map(\.dependencies) == snapshot.operations.map(\.dependencies))

        var encoder = JSONLinesEncoder()
        var text = ""
        for event in events { encoder.encode(event, into: &text) }
        let lines = text.split(separator: "\n")
        #expect(lines.contains(#"{"t":0.000,"event":"linked","id":1,"op":"upload","after":[2]}"#))
        var fromLines = EventSnapshotBuilder()
        let decoder = JSONLinesDecoder()
        for line in lines { try fromLines.apply(decoder.decode(line).line) }
        #expect(fromLines.snapshot().operation(id: 1)?.dependencies == [2])
    }

    @Test func aLinkToAnOperationNotYetInItsFirstStateJoinsItsAddedDependencies() {
        // A stream that starts mid-way may carry `linked` between an `added` and its first
        // `state` (the builder holds announced operations until then).
        var builder = EventSnapshotBuilder()
        builder.apply(.added(time: .zero, id: 1, name: "a", kind: .other, totalBytes: 0, dependencies: [3]))
        builder.apply(.linked(time: .zero, id: 1, dependencies: [2]))
        builder.apply(.state(time: .zero, id: 1, from: nil, to: .waiting, outcome: nil, message: nil))
        builder.apply(.linked(time: .seconds(1), id: 1, dependencies: [2]))
        #expect(builder.snapshot().operation(id: 1)?.dependencies == [3, 2], "a repeated link is ignored")
    }
}
