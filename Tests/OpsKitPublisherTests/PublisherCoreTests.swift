import NIOCore
import OpsMonitor
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// The publisher core as a pure state machine: hello, snapshot, seq, commands, tokens, shutdown.
@Suite struct PublisherCoreTests {
    @Test func welcomeThenSnapshotWithSeqThenNumberedDeltas() {
        var harness = CoreHarness()
        harness.publish(Sample.added(1))
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":1,"max":3,"client":"test"}"#)
        #expect(
            harness.lines(1) == [
                #"{"event":"welcome","protocol":1,"app":"test","queue":"q","pid":42,"role":"observer","epoch":"e1","seq":2,"resumed":false,"heartbeat":2.0,"max_line":65536}"#
                    + "\n"
            ])
        #expect(harness.core.needsKeyframe)
        let snapshot = QueueSnapshot(
            counts: StateCounts(ready: 1),
            operations: ChunkedArray([OperationSnapshot(id: 1, name: "op1", kind: .download, totalUnits: 100)]))
        harness.publish([Sample.progress(1, 10, at: .seconds(1))], snapshot: snapshot)
        harness.flush()
        let lines = harness.lines(1)
        #expect(lines.first?.hasPrefix(#"{"t":0.000000000,"event":"snapshot_begin","seq":3,"#) == true)
        #expect(lines.last == #"{"event":"snapshot_end","seq":3}"# + "\n")
        harness.publish([Sample.progress(1, 20, at: .seconds(2))])
        harness.flush()
        #expect(
            harness.lines(1) == [
                #"{"t":2.000,"event":"progress","id":1,"op":"op1","bytes":20,"total":100,"rate":10,"retries":0,"seq":4}"#
                    + "\n"
            ])
        #expect(!harness.core.needsKeyframe)
    }

    @Test func noCommonVersionIsRefusedAndClosed() {
        var harness = CoreHarness()
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":2,"max":5}"#)
        #expect(
            harness.lines(1) == [
                #"{"event":"error","code":"unsupported_protocol","message":"this publisher speaks opsdash/1…1","supported":{"min":1,"max":1}}"#
                    + "\n"
            ])
        #expect(harness.closed == [1])
    }

    @Test func theFirstLineMustBeAHelloAndComeInTime() {
        var harness = CoreHarness()
        harness.connect(1)
        harness.say(1, #"{"cmd":"suspend"}"#)
        #expect(
            harness.lines(1) == [
                #"{"event":"error","code":"bad_line","message":"the first line must be a hello"}"# + "\n"
            ])
        #expect(harness.closed == [1])
        harness.connect(2)
        harness.now = .seconds(9)
        harness.flush()
        #expect(harness.lines(2).isEmpty)
        harness.now = .seconds(10)
        harness.flush()
        #expect(harness.lines(2) == [#"{"event":"bye","reason":"no hello within 10 s"}"# + "\n"])
        #expect(harness.closed.contains(2))
    }

    @Test func observersAreForbiddenToCommand() {
        var harness = CoreHarness(access: .init(allowControl: false))
        harness.startStreaming(1)
        _ = harness.lines(1)
        harness.say(1, #"{"cmd":"suspend","id":"a"}"#)
        #expect(
            harness.lines(1) == [
                #"{"event":"reply","id":"a","ok":false,"error":"forbidden","message":"read-only viewer: suspend needs the controller role"}"#
                    + "\n"
            ])
        #expect(harness.executed.isEmpty)
        #expect(harness.closed.isEmpty, "a refused command keeps the connection")
    }

    @Test func controllerCommandsAreCheckedExecutedAuditedAndAnswered() {
        var harness = CoreHarness(access: .init(allowControl: true))
        harness.startStreaming(1)
        harness.startStreaming(2, hello: #"{"cmd":"hello","min":1,"max":1,"role":"observer"}"#)
        harness.publish(Sample.added(1) + Sample.added(2))
        harness.flush()
        _ = harness.lines(1)
        _ = harness.lines(2)
        let cases: [(String, String)] = [
            (
                #"{"cmd":"cancel","id":1,"op":9}"#,
                #"{"event":"reply","id":1,"ok":false,"error":"not_found","message":"no unfinished operation #9"}"#
            ),
            (
                #"{"cmd":"cancel","id":2}"#,
                #"{"event":"reply","id":2,"ok":false,"error":"bad_argument","message":"cancel needs \"op\": an operation id"}"#
            ),
            (
                #"{"cmd":"cancel_all","id":3}"#,
                #"{"event":"reply","id":3,"ok":false,"error":"bad_argument","message":"cancel_all needs \"confirm\": true"}"#
            ),
            (
                #"{"cmd":"set_limit","id":4,"limit":0}"#,
                #"{"event":"reply","id":4,"ok":false,"error":"bad_argument","message":"set_limit needs \"limit\": 1…1024"}"#
            ),
            (
                #"{"cmd":"explode","id":5}"#,
                #"{"event":"reply","id":5,"ok":false,"error":"unknown_cmd","message":"unknown command \"explode\""}"#
            ),
            (
                #"{"cmd":"cancel","op":1"#,
                #"{"event":"error","code":"bad_line","message":"invalid JSON at byte 23: expected ',' or '}'"}"#
            ),
            (
                #"{"id":6}"#,
                #"{"event":"reply","id":6,"ok":false,"error":"bad_line","message":"line has no \"cmd\" string"}"#
            ),
        ]
        for (line, reply) in cases {
            harness.say(1, line)
            #expect(harness.lines(1) == [reply + "\n"], "\(line)")
        }
        harness.say(2, #"{"cmd":"resume","id":"x"}"#)
        #expect(harness.lines(2).first?.contains(#""error":"forbidden""#) == true, "asked for observer: read-only")
        harness.say(1, #"{"cmd":"cancel","id":"c1","op":2}"#)
        #expect(harness.executed.count == 1)
        #expect(harness.executed.first?.1 == .cancel(operationID: 2))
        // The shell carried it out and published its effect:
        harness.publish([
            .queue(
                time: .seconds(1), isSuspended: false, maxConcurrentOperationCount: 1, counts: .init(),
                reason: "operator cancelled #2")
        ])
        harness.take(
            harness.core.commandDone(
                1, .cancel(operationID: 2), request: .string("c1"), before: .init(name: "photo-1-2.jpg")))
        #expect(harness.lines(1) == [#"{"event":"reply","id":"c1","ok":true,"seq":6}"# + "\n"])
        harness.flush()
        let broadcast = harness.lines(2)
        #expect(broadcast.count == 2)
        #expect(
            broadcast.last
                == #"{"t":1.000,"event":"audit","seq":6,"by":"uid 1000","cmd":"cancel","op":2,"text":""#
                + harness.core.who(1) + #": cancel #2 photo-1-2.jpg"}"# + "\n")
        #expect(harness.core.who(1) == "uid 1000" + (PublisherCore.systemUserName(1000).map { " (\($0))" } ?? ""))
        harness.core.userName = { $0 == 1000 ? "alice" : nil }
        #expect(harness.core.who(1) == "uid 1000 (alice)", "who, with the user name the system has")
        // Counted by command and result; unknown commands and bad lines name no command.
        let tally = harness.core.tally
        #expect(tally.commands["cancel"] == ["ok": 1, "not_found": 1, "bad_argument": 1, "forbidden": 0])
        #expect(tally.commands["cancel_all"]?["bad_argument"] == 1)
        #expect(tally.commands["set_limit"]?["bad_argument"] == 1)
        #expect(tally.commands["resume"]?["forbidden"] == 1)
        #expect(tally.commands["suspend"] == ["ok": 0, "not_found": 0, "bad_argument": 0, "forbidden": 0])
        #expect(tally.commands.keys.sorted() == RemoteTally.commands.sorted(), "\(tally.commands.keys)")
        #expect(tally.clients == ["controller": 1, "observer": 1])
    }

    @Test func theTallyCountsViewersByRoleAndStartsAtZero() {
        var harness = CoreHarness(access: .init(allowControl: true))
        #expect(harness.core.tally == RemoteTally())
        #expect(RemoteTally().clients == ["observer": 0, "controller": 0])
        #expect(RemoteTally().resyncs == ["asked": 0, "lagged": 0, "burst": 0])
        harness.connect(1)
        #expect(harness.core.tally.clients == ["observer": 0, "controller": 0], "no hello yet: not a viewer")
        harness.say(1, #"{"cmd":"hello","min":1,"max":1}"#)
        harness.startStreaming(2, hello: #"{"cmd":"hello","min":1,"max":1,"role":"observer"}"#)
        harness.startStreaming(3, hello: #"{"cmd":"hello","min":1,"max":1,"role":"observer"}"#)
        #expect(harness.core.tally.clients == ["controller": 1, "observer": 2])
        harness.say(2, #"{"cmd":"resync"}"#)
        #expect(harness.core.tally.resyncs == ["asked": 1, "lagged": 0, "burst": 0])
        harness.core.disconnect(3)
        #expect(harness.core.tally.clients == ["controller": 1, "observer": 1])
    }

    @Test(arguments: [
        #"{"cmd":"hello"}"#, #"{"cmd":"hello","max":1}"#, #"{"cmd":"hello","min":1}"#,
        #"{"cmd":"hello","min":"1","max":1}"#, #"{"cmd":"hello","min":1,"max":1.5}"#,
        #"{"cmd":"hello","min":null,"max":1}"#, #"{"cmd":"hello","min":1,"max":[1]}"#,
    ])
    func aHelloWithoutIntegerVersionsIsRefusedAndClosed(hello: String) {
        var harness = CoreHarness()
        harness.connect(1)
        harness.say(1, hello)
        let lines = harness.lines(1)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains(#""event":"error","code":"bad_argument""#) == true, "\(lines)")
        #expect(lines.first?.contains("welcome") == false)
        #expect(harness.closed == [1], "refused before the welcome: closed")
        #expect(harness.core.tally.clients == ["observer": 0, "controller": 0], "not a viewer")
    }

    @Test func tcpNeedsTheRightTokenAndWaitsAfterAWrongOne() {
        var harness = CoreHarness(
            access: .init(allowControl: true, readToken: "read-secret-0123456", controlToken: "control-secret-0123"))
        harness.connect(1, peer: .network(address: "127.0.0.1:5000"))
        harness.say(1, #"{"cmd":"hello","min":1,"max":1,"token":"guess"}"#)
        #expect(
            harness.delayed[1]?.lines == [#"{"event":"error","code":"unauthorized","message":"wrong token"}"# + "\n"])
        #expect(harness.delayed[1]?.delay == .seconds(1))
        harness.connect(2, peer: .network(address: "127.0.0.1:5001"))
        harness.say(2, #"{"cmd":"hello","min":1,"max":1}"#)
        #expect(harness.delayed[2]?.lines.first?.contains("a token is required") == true)
        harness.connect(3, peer: .network(address: "127.0.0.1:5002"))
        harness.say(3, #"{"cmd":"hello","min":1,"max":1,"token":"read-secret-0123456"}"#)
        #expect(harness.lines(3).first?.contains(#""role":"observer""#) == true)
        harness.connect(4, peer: .network(address: "127.0.0.1:5003"))
        harness.say(4, #"{"cmd":"hello","min":1,"max":1,"token":"control-secret-0123"}"#)
        #expect(harness.lines(4).first?.contains(#""role":"controller""#) == true)
        #expect(PublisherCore.constantTimeEqual("abc", "abc"))
        #expect(!PublisherCore.constantTimeEqual("abc", "abd"))
        #expect(!PublisherCore.constantTimeEqual("abc", "abcd"))
    }

    @Test func withNobodyConnectedEventsAreNumberedButNotEncoded() {
        var harness = CoreHarness()
        harness.publish(Sample.added(1) + Sample.added(2))
        #expect(harness.core.head == 4)
        #expect(harness.core.ringBytes == 0)
        harness.connect(1)
        harness.say(1, #"{"cmd":"hello","min":1,"max":1,"resume":{"epoch":"e1","seq":2}}"#)
        #expect(harness.lines(1).first?.contains(#""resumed":false"#) == true, "skipped deltas cannot be resumed")
        let snapshot = QueueSnapshot(
            counts: StateCounts(ready: 2),
            operations: ChunkedArray([OperationSnapshot(id: 1, name: "op1"), OperationSnapshot(id: 2, name: "op2")]))
        harness.publish([], snapshot: snapshot)
        harness.flush()
        #expect(harness.lines(1).last == #"{"event":"snapshot_end","seq":4}"# + "\n")
        harness.publish([.state(time: .seconds(1), id: 2, from: .ready, to: .executing, outcome: nil, message: nil)])
        harness.flush()
        #expect(
            harness.lines(1) == [
                #"{"t":1.000,"event":"state","id":2,"op":"op2","from":"ready","to":"executing","seq":5}"# + "\n"
            ])
        harness.say(1, #"{"cmd":"cancel","op":2}"#)
        #expect(harness.core.needsKeyframe == false)
    }

    @Test func shutdownSaysByeToEveryone() {
        var harness = CoreHarness()
        harness.startStreaming(1)
        harness.connect(2)
        _ = harness.lines(1)
        harness.take(harness.core.shutdown(reason: "app shutting down"))
        #expect(harness.lines(1) == [#"{"event":"bye","reason":"app shutting down"}"# + "\n"])
        #expect(harness.lines(2) == [#"{"event":"bye","reason":"app shutting down"}"# + "\n"])
        #expect(harness.closed == [1, 2])
    }
}
