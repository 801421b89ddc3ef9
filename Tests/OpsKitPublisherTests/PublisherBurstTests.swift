import Logging
import NIOCore
import OpsKit
import OpsMonitor
@testable import OpsWire
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// A burst (changes faster than any viewer follows): the core encodes none of them, tells every
/// streaming viewer `resync` (reason `burst`), keeps it alive with heartbeats, gives it a
/// picture when asked (`burstKeyframe`) and a last one when the burst ends, after which deltas
/// follow that picture again.
@Suite struct PublisherBurstTests {
    /// A harness with viewer 1 streaming after operation 1 was added (seq 2).
    static func streaming() -> CoreHarness {
        var harness = CoreHarness()
        harness.publish(Sample.added(1))
        harness.startStreaming(1)
        _ = harness.lines(1)
        return harness
    }

    static func picture(finished ids: [Int]) -> QueueSnapshot {
        var builder = EventSnapshotBuilder()
        for id in ids {
            for event in Sample.added(id) { builder.apply(event) }
            builder.apply(.state(time: .zero, id: id, from: .ready, to: .executing, outcome: nil, message: nil))
            builder.apply(
                .state(time: .zero, id: id, from: .executing, to: .finished, outcome: .succeeded, message: nil))
        }
        return builder.snapshot()
    }

    @Test func aBurstTellsEveryViewerAndEncodesNothing() {
        var harness = Self.streaming()
        harness.core.beginBurst(dropping: Sample.added(2) + Sample.added(3), monitorTime: .seconds(1))
        #expect(harness.core.isInBurst)
        #expect(!harness.core.needsKeyframe, "keyframes during a burst come from burstKeyframe only")
        #expect(harness.core.head == 6, "the dropped events are still numbered")
        harness.flush()
        #expect(harness.lines(1) == [#"{"event":"resync","reason":"burst","seq":6}"# + "\n"])
        harness.now = .seconds(1)
        harness.flush()
        #expect(harness.lines(1).isEmpty, "nothing to say before a heartbeat is due")
        harness.now = .seconds(3)
        harness.flush()
        #expect(harness.lines(1).map { $0.contains(#""event":"heartbeat","seq":6"#) } == [true])
        #expect(harness.core.tally.resyncs["burst"] == 1)
        // Metrics are created from `RemoteTally.resyncReasons` at zero: a reason the core counts
        // but the list lacks would never be exported.
        #expect(harness.core.tally.resyncs.keys.sorted() == RemoteTally.resyncReasons.sorted())
    }

    @Test func viewersGetPicturesDuringTheBurstAndDeltasAfterIt() {
        var harness = Self.streaming()
        harness.core.beginBurst(dropping: Sample.added(2), monitorTime: .seconds(1))
        harness.flush()
        _ = harness.lines(1)
        harness.core.burstKeyframe(Self.picture(finished: [1, 2]))
        harness.flush()
        let first = harness.lines(1)
        #expect(first.first?.contains(#""event":"snapshot_begin","seq":4"#) == true, "\(first)")
        #expect(first.contains { $0.contains(#""event":"snapshot_end""#) })
        #expect(!first.contains { $0.contains(#""event":"resync""#) }, "it was told already")
        // The next picture of the burst comes after a resync: the viewer is live again.
        harness.core.burstKeyframe(Self.picture(finished: [1, 2]))
        harness.flush()
        let second = harness.lines(1)
        #expect(second.first == #"{"event":"resync","reason":"burst","seq":4}"# + "\n")
        #expect(second.dropFirst().first?.contains(#""event":"snapshot_begin","seq":4"#) == true)
        harness.core.endBurst(snapshot: Self.picture(finished: [1, 2]))
        #expect(!harness.core.isInBurst)
        harness.flush()
        let last = harness.lines(1)
        #expect(last.first == #"{"event":"resync","reason":"burst","seq":4}"# + "\n")
        #expect(last.last?.contains(#""event":"snapshot_end""#) == true)
        harness.publish(Sample.added(3, at: .seconds(2)))
        harness.flush()
        let deltas = harness.lines(1)
        #expect(deltas.map { $0.contains(#""seq":5}"#) || $0.contains(#""seq":6}"#) } == [true, true], "\(deltas)")
        #expect(deltas.first?.contains(#""op":"op3""#) == true)
    }

    @Test func aViewerThatJoinsDuringABurstIsToldWhyItWaits() {
        var harness = Self.streaming()
        harness.core.beginBurst(dropping: [], monitorTime: .seconds(1))
        harness.connect(2)
        harness.say(2, #"{"cmd":"hello","min":1,"max":1}"#)
        harness.flush()
        let lines = harness.lines(2)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains(#""event":"welcome""#) == true)
        #expect(lines.last == #"{"event":"resync","reason":"burst","seq":2}"# + "\n")
    }

    @Test func aViewerThatResumesDuringABurstGetsAPictureInstead() {
        var harness = Self.streaming()
        harness.core.beginBurst(dropping: [], monitorTime: .seconds(1))
        harness.connect(2)
        harness.say(2, #"{"cmd":"hello","min":1,"max":1,"resume":{"epoch":"e1","seq":2}}"#)
        harness.flush()
        let lines = harness.lines(2)
        #expect(lines.first?.contains(#""resumed":false"#) == true, "\(lines)")
        #expect(lines.last == #"{"event":"resync","reason":"burst","seq":2}"# + "\n")
    }
}

/// How the publisher's engine tells bursts: from its configuration.
@Suite struct PublisherEngineBurstSettingsTests {
    /// Ending a burst costs a snapshot of the whole queue, so a pause while the app adds a large
    /// batch (0.1–0.5 s for 100,000 operations) must not end it: the rate must stay low for
    /// `burstCalmSpan` (500 ms unless configured).
    @Test func aBurstEndsOnlyAfterTheConfiguredCalmSpan() {
        #expect(PublisherCore.Configuration().burstCalmSpan == .milliseconds(500))
        var configuration = PublisherCore.Configuration()
        configuration.burstCalmSpan = .milliseconds(750)
        let core = PublisherCore(
            identity: .init(app: "test", queue: "q", pid: 42, epoch: "e1"), configuration: configuration)
        let monitor = QueueMonitor(queue: ObservableOperationQueue(), clock: ManualClock())
        let engine = PublisherEngine(monitor: monitor, core: core, logger: Logger(label: "test"))
        #expect(engine.burst.span == .milliseconds(750))
        #expect(engine.burst.rate == configuration.burstRate)
    }
}
