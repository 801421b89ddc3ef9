import Testing

@_spi(OpsDashInternals) @testable import OpsKitPublisher
import OpsMonitor
import OpsWire

/// `cancel_many`: a controller cancels a list of operations with one line; the publisher checks
/// the list, carries it out once, audits it in one line and counts it like other commands.
struct CancelManyTests {
    /// A controller (1) and a read-only viewer (2), both streaming, with operations 1…4 unfinished.
    static func harness() -> CoreHarness {
        var harness = CoreHarness(access: .init(allowControl: true))
        harness.startStreaming(1)
        harness.startStreaming(2, hello: #"{"cmd":"hello","min":1,"max":1,"role":"observer"}"#)
        harness.publish((1...4).flatMap { Sample.added($0) })
        harness.flush()
        _ = harness.lines(1)
        _ = harness.lines(2)
        harness.core.userName = { $0 == 1000 ? "alice" : nil }
        return harness
    }

    @Test func theUnfinishedOnesAreCancelledOnceAuditedInOneLineAndAnswered() {
        var harness = Self.harness()
        harness.publish([
            .state(time: .seconds(1), id: 4, from: .ready, to: .finished, outcome: .cancelled, message: nil)
        ])
        harness.flush()
        _ = harness.lines(1)
        _ = harness.lines(2)
        harness.say(1, #"{"cmd":"cancel_many","id":"c1","ops":[3,1,9,3,4,2]}"#)
        #expect(harness.lines(1).isEmpty)
        #expect(harness.executed.map(\.1) == [.cancelMany(operationIDs: [3, 1, 2])], "unfinished, each once, in order")
        #expect(harness.executed.first?.2 == .string("c1"))
        harness.take(harness.core.commandDone(1, .cancelMany(operationIDs: [3, 1, 2]), request: .string("c1")))
        #expect(harness.lines(1) == [#"{"event":"reply","id":"c1","ok":true,"seq":10}"# + "\n"])
        harness.flush()
        #expect(
            harness.lines(2)
                == [
                    #"{"t":1.000,"event":"audit","seq":10,"by":"uid 1000","cmd":"cancel_many","count":3,"text":"uid 1000 (alice): cancel 3 operations (#3 #1 #2)"}"#
                        + "\n"
                ])
        #expect(harness.core.tally.commands["cancel_many"]?["ok"] == 1)
    }

    @Test func theAuditTextListsAtMostEightIDs() {
        let ids = Array(100..<112)
        #expect(
            RemoteCommand.cancelMany(operationIDs: ids).audit(by: "uid 1000")
                == "uid 1000: cancel 12 operations (#100 #101 #102 #103 #104 #105 #106 #107 …)")
        #expect(
            RemoteCommand.cancelMany(operationIDs: [5]).audit(by: "uid 1000") == "uid 1000: cancel 1 operation (#5)")
    }

    @Test func listsOfNothingUnfinishedTooLongOrMalformedAreRefused() {
        var harness = Self.harness()
        let tooMany = "[" + (1...10_001).map(String.init).joined(separator: ",") + "]"
        let cases: [(String, String)] = [
            (
                #"{"cmd":"cancel_many","id":1,"ops":[7,8]}"#,
                #"{"event":"reply","id":1,"ok":false,"error":"not_found","message":"no unfinished operation among the 2 given"}"#
            ),
            (
                #"{"cmd":"cancel_many","id":2,"ops":"# + tooMany + "}",
                #"{"event":"reply","id":2,"ok":false,"error":"bad_argument","message":"cancel_many needs \"ops\": 1…10000 operation ids"}"#
            ),
            (
                #"{"cmd":"cancel_many","id":3,"ops":[1,"2"]}"#,
                #"{"event":"reply","id":3,"ok":false,"error":"bad_argument","message":"cancel_many needs \"ops\": 1…10000 operation ids"}"#
            ),
            (
                #"{"cmd":"cancel_many","id":4}"#,
                #"{"event":"reply","id":4,"ok":false,"error":"bad_argument","message":"cancel_many needs \"ops\": 1…10000 operation ids"}"#
            ),
        ]
        for (line, reply) in cases {
            harness.say(1, line)
            #expect(harness.lines(1) == [reply + "\n"], "\(line.prefix(60))")
        }
        #expect(harness.executed.isEmpty)
        #expect(harness.core.tally.commands["cancel_many"]?["bad_argument"] == 3)
        #expect(harness.core.tally.commands["cancel_many"]?["not_found"] == 1)
    }

    @Test func aReadOnlyViewerIsRefused() {
        var harness = Self.harness()
        harness.say(2, #"{"cmd":"cancel_many","id":"x","ops":[1,2]}"#)
        #expect(
            harness.lines(2)
                == [
                    #"{"event":"reply","id":"x","ok":false,"error":"forbidden","message":"read-only viewer: cancel_many needs the controller role"}"#
                        + "\n"
                ])
        #expect(harness.executed.isEmpty)
        #expect(harness.core.tally.commands["cancel_many"]?["forbidden"] == 1)
    }

    @Test func itCountsAgainstTheRateLimitLikeAnyLine() {
        var harness = CoreHarness(
            configuration: { () -> PublisherCore.Configuration in
                var configuration = PublisherCore.Configuration()
                configuration.lineBurst = 1
                return configuration
            }(), access: .init(allowControl: true))
        harness.startStreaming(1)
        harness.publish(Sample.added(1))
        harness.flush()
        _ = harness.lines(1)
        harness.say(1, #"{"cmd":"cancel_many","id":1,"ops":[1]}"#)
        #expect(harness.lines(1).first?.contains(#""error":"rate_limited""#) == true, "the hello took the only token")
        #expect(harness.executed.isEmpty)
    }
}
