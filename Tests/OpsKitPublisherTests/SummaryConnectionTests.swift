import OpsMonitor
import OpsWire
import Testing

@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// A fleet list's connection (`hello` with `"summary":true`): no picture, no deltas, not a
/// viewer, no reason to record events; `status` answered on any connection.
@Suite struct SummaryConnectionTests {
    @Test func aSummaryHelloGetsNoSnapshotAndNoDeltasOnlyHeartbeats() {
        var harness = CoreHarness(access: .init(allowControl: true))
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":1,"max":1,"summary":true}"#)
        #expect(
            harness.lines(1) == [
                #"{"event":"welcome","protocol":1,"app":"test","queue":"q","pid":42,"role":"controller","epoch":"e1","seq":0,"resumed":false,"heartbeat":2.0,"max_line":65536}"#
                    + "\n"
            ])
        #expect(!harness.core.needsKeyframe)
        #expect(!harness.core.hasConnections, "a summary connection turns no event recording on")
        #expect(harness.core.viewerCount == 0)
        harness.publish(Sample.added(1), snapshot: QueueSnapshot())
        harness.flush()
        #expect(harness.lines(1).isEmpty, "no delta and no snapshot")
        #expect(harness.core.deltasWaiting == 0)
        harness.now = .seconds(3)
        harness.flush()
        #expect(harness.lines(1) == [#"{"t":0.000,"event":"heartbeat","seq":2}"# + "\n"])
    }

    @Test func statusIsAskedOfTheShellOnAnyConnection() {
        var harness = CoreHarness()
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":1,"max":1,"summary":true}"#)
        harness.say(1, #"{"cmd":"status","id":"s1"}"#)
        harness.startStreaming(2)
        harness.say(2, #"{"cmd":"status"}"#)
        #expect(harness.statusAsked.map(\.0) == [1, 2])
        #expect(harness.statusAsked.map(\.1) == [.string("s1"), nil])
        #expect(harness.core.viewerCount == 1, "the streaming one only")
    }

    @Test func aSummaryConnectionCannotResyncStreamOrSteer() {
        var harness = CoreHarness(access: .init(allowControl: true))
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":1,"max":1,"summary":true}"#)
        _ = harness.lines(1)
        harness.say(1, #"{"cmd":"resync","id":1}"#)
        harness.say(1, #"{"cmd":"suspend","id":2}"#)
        #expect(
            harness.lines(1) == [
                #"{"event":"reply","id":1,"ok":false,"error":"bad_argument","message":"resync needs a hello without \"summary\""}"#
                    + "\n",
                #"{"event":"reply","id":2,"ok":false,"error":"bad_argument","message":"suspend needs a hello without \"summary\""}"#
                    + "\n",
            ])
        #expect(harness.executed.isEmpty)
        #expect(!harness.core.needsKeyframe)
    }
}
