import NIOCore
import OpsMonitor
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// The publisher core under floods, bad lines and slow or returning viewers: rate limits, resyncs,
/// heartbeats and resuming inside the ring.
@Suite struct PublisherCoreRobustnessTests {
    @Test func floodsAreRateLimitedThenClosed() {
        var configuration = PublisherCore.Configuration()
        configuration.lineBurst = 5
        configuration.linesPerSecond = 1
        configuration.maximumRefusals = 20
        var harness = CoreHarness(configuration: configuration, access: .init(allowControl: true))
        harness.startStreaming(1)
        _ = harness.lines(1)
        for _ in 0..<10 { harness.say(1, #"{"cmd":"ping","id":1}"#) }
        let replies = harness.lines(1)
        #expect(replies.filter { $0.contains("pong") }.count == 4)
        #expect(replies.filter { $0.contains(#""error":"rate_limited""#) }.count == 6)
        harness.now = .seconds(3)
        harness.say(1, #"{"cmd":"ping"}"#)
        #expect(harness.lines(1).first?.contains("pong") == true, "the bucket refills")
        for _ in 0..<30 { harness.say(1, #"{"cmd":"ping"}"#) }
        #expect(harness.closed == [1])
        #expect(harness.lines(1).last == #"{"event":"bye","reason":"too many refused lines"}"# + "\n")
    }

    @Test func anOverlongLineClosesTheConnection() {
        var harness = CoreHarness()
        harness.startStreaming(1)
        _ = harness.lines(1)
        harness.take(harness.core.lineTooLong(1))
        #expect(
            harness.lines(1) == [
                #"{"event":"error","code":"line_too_long","message":"line longer than 65536 bytes"}"# + "\n"
            ])
        #expect(harness.closed == [1])
    }

    @Test func invalidUTF8IsABadLine() {
        var harness = CoreHarness()
        harness.startStreaming(1)
        _ = harness.lines(1)
        harness.take(harness.core.receive(1, line: Array(#"{"cmd":""#.utf8) + [0xFF, 0x22, 0x7D], now: .zero))
        #expect(
            harness.lines(1) == [
                #"{"event":"error","code":"bad_line","message":"invalid JSON at byte 10: string is not valid UTF-8"}"#
                    + "\n"
            ])
        #expect(harness.closed.isEmpty)
    }

    @Test func aStalledViewerLeavesTheRingAndIsResynced() {
        var configuration = PublisherCore.Configuration()
        configuration.ringCapacity = 100
        var harness = CoreHarness(configuration: configuration)
        harness.startStreaming(1)
        harness.startStreaming(2)
        _ = harness.lines(1)
        _ = harness.lines(2)
        harness.core.setWritable(1, false)
        harness.publish(Sample.added(1))
        for step in 0..<300 {
            harness.publish([Sample.progress(1, Int64(step % 100), at: .milliseconds(step))])
            harness.flush()
        }
        #expect(harness.lines(1).isEmpty, "not writable: nothing sent, nothing queued")
        #expect(harness.lines(2).count == 302, "the other viewer is unaffected")
        #expect(harness.core.ringBytes < 100 * 200, "the ring stays bounded")
        harness.core.setWritable(1, true)
        harness.flush()
        #expect(harness.lines(1) == [#"{"event":"resync","reason":"lagged","seq":302}"# + "\n"])
        #expect(harness.core.tally.resyncs == ["asked": 0, "lagged": 1, "burst": 0])
        harness.publish([], snapshot: QueueSnapshot())
        harness.flush()
        #expect(harness.lines(1).first?.contains(#""event":"snapshot_begin","seq":302"#) == true)
    }

    @Test func aLaggingViewerGetsTheLatestProgressOnlyButEveryStateChange() {
        var configuration = PublisherCore.Configuration()
        configuration.coalesceLag = 10
        var harness = CoreHarness(configuration: configuration)
        harness.startStreaming(1)
        _ = harness.lines(1)
        harness.publish(Sample.added(1) + Sample.added(2))  // seq 1…4
        // seq 5…24:
        for step in 1...20 { harness.publish([Sample.progress(1, Int64(step), at: .milliseconds(step))]) }
        // seq 25:
        harness.publish([.state(time: .seconds(1), id: 2, from: .ready, to: .executing, outcome: nil, message: nil)])
        harness.publish([Sample.progress(1, 50, at: .seconds(2))])  // 26
        harness.flush()
        let lines = harness.lines(1)
        #expect(lines.count == 4 + 1 + 1 + 1)
        #expect(lines[4] == #"{"event":"skipped","from":5,"to":24}"# + "\n")
        #expect(lines[5].contains(#""to":"executing","seq":25"#))
        #expect(lines[6].contains(#""bytes":50"#) && lines[6].contains(#""seq":26"#))
    }

    @Test func idleViewersGetHeartbeats() {
        var harness = CoreHarness()
        harness.startStreaming(1)
        _ = harness.lines(1)
        harness.now = .seconds(1)
        harness.flush()
        #expect(harness.lines(1).isEmpty)
        harness.now = .seconds(2)
        harness.flush()
        #expect(harness.lines(1) == [#"{"t":0.000,"event":"heartbeat","seq":0}"# + "\n"])
    }

    @Test func aViewerResumesInsideTheRingWithTheSameEpoch() {
        var harness = CoreHarness()
        harness.connect(9)  // someone connected: the deltas are kept in the ring
        harness.publish(Sample.added(1) + Sample.added(2))
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":1,"max":1,"resume":{"epoch":"e1","seq":2}}"#)
        #expect(harness.lines(1).first?.contains(#""resumed":true"#) == true)
        harness.flush()
        #expect(harness.lines(1).map { $0.contains(#""seq":3"#) || $0.contains(#""seq":4"#) } == [true, true])
        harness.connect(2)
        harness.say(2, #"{"cmd":"hello","min":1,"max":1,"resume":{"epoch":"other","seq":2}}"#)
        #expect(harness.lines(2).first?.contains(#""resumed":false"#) == true)
        #expect(harness.core.needsKeyframe)
    }

}
