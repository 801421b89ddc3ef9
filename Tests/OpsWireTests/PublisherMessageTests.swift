import OpsMonitor
import Testing

@testable import OpsWire

/// Every publisher message: its exact bytes (as docs/PROTOCOL.md shows them) and back.
struct PublisherMessageTests {
    static let welcome = PublisherMessage.Welcome(
        protocolVersion: 1, app: "demo", queue: "images", pid: 4242, role: .controller, epoch: "5f3a9c1e", seq: 5,
        resumed: false, heartbeat: 2, maximumLine: 65_536)

    /// Each message kind with the line the publisher sends for it.
    static let golden: [(PublisherMessage, String)] = [
        (
            .welcome(welcome),
            #"{"event":"welcome","protocol":1,"app":"demo","queue":"images","pid":4242,"role":"controller","epoch":"5f3a9c1e","seq":5,"resumed":false,"heartbeat":2.0,"max_line":65536}"#
        ),
        (
            .welcome(
                .init(
                    protocolVersion: 1, app: "a", queue: "q", pid: 7, role: .observer, epoch: "e1", seq: 2,
                    resumed: true, heartbeat: 0.2, maximumLine: 65_536, sharedStream: "/proc/7/fd/9")),
            #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"observer","epoch":"e1","seq":2,"resumed":true,"heartbeat":0.2,"max_line":65536,"shm":"/proc/7/fd/9"}"#
        ),
        (.reply(request: .string("r1"), seq: 8), #"{"event":"reply","id":"r1","ok":true,"seq":8}"#),
        (.reply(request: nil, seq: 8), #"{"event":"reply","ok":true,"seq":8}"#),
        (
            .refused(request: .int(3), code: .unknownCommand, message: #"unknown command "pause""#),
            #"{"event":"reply","id":3,"ok":false,"error":"unknown_cmd","message":"unknown command \"pause\""}"#
        ),
        (
            .error(code: .badLine, message: "the first line must be a hello"),
            #"{"event":"error","code":"bad_line","message":"the first line must be a hello"}"#
        ),
        (
            .error(code: .unsupportedProtocol, message: "this publisher speaks opsdash/1…1", supported: 1...1),
            #"{"event":"error","code":"unsupported_protocol","message":"this publisher speaks opsdash/1…1","supported":{"min":1,"max":1}}"#
        ),
        (.pong(request: nil, seq: 3), #"{"event":"pong","seq":3}"#),
        (.pong(request: .string("p"), seq: 3), #"{"event":"pong","id":"p","seq":3}"#),
        (.resync(reason: "lagged", seq: 302), #"{"event":"resync","reason":"lagged","seq":302}"#),
        (.heartbeat(time: .milliseconds(1_500), seq: 8), #"{"t":1.500,"event":"heartbeat","seq":8}"#),
        (.heartbeat(time: nil, seq: 9), #"{"event":"heartbeat","seq":9}"#),
        (.sharedStream(position: 4_096, seq: 2, snapshot: false), #"{"event":"shm","position":4096,"seq":2}"#),
        (
            .sharedStream(position: 512, seq: 2, snapshot: true),
            #"{"event":"shm","position":512,"seq":2,"snapshot":true}"#
        ),
        (.skipped(from: 5, to: 24), #"{"event":"skipped","from":5,"to":24}"#),
        (
            .audit(
                .init(
                    time: .milliseconds(1_500), seq: 8, by: "uid 1000", command: "set_limit", limit: 4,
                    text: "uid 1000 (alice): limit 2→4")),
            #"{"t":1.500,"event":"audit","seq":8,"by":"uid 1000","cmd":"set_limit","limit":4,"text":"uid 1000 (alice): limit 2→4"}"#
        ),
        (
            .audit(
                .init(
                    time: .seconds(2), seq: 9, by: "uid 1000", command: "cancel", operation: 3,
                    text: "uid 1000: cancel #3 photo.jpg")),
            #"{"t":2.000,"event":"audit","seq":9,"by":"uid 1000","cmd":"cancel","op":3,"text":"uid 1000: cancel #3 photo.jpg"}"#
        ),
        (
            .audit(
                .init(
                    time: .seconds(2), seq: 10, by: "uid 1000", command: "cancel_many", count: 2,
                    text: "uid 1000: cancel 2 operations (#3 #4)")),
            #"{"t":2.000,"event":"audit","seq":10,"by":"uid 1000","cmd":"cancel_many","count":2,"text":"uid 1000: cancel 2 operations (#3 #4)"}"#
        ),
        (.bye(reason: "app shutting down"), #"{"event":"bye","reason":"app shutting down"}"#),
        (
            .status(
                .init(
                    request: .string("s1"), time: .milliseconds(1_500), suspended: false, limit: 4,
                    counts: StateCounts(waiting: 1, ready: 2, executing: 3, succeeded: 4, failed: 5, cancelled: 6),
                    viewers: 2)),
            #"{"t":1.500,"event":"status","id":"s1","suspended":false,"limit":4,"waiting":1,"ready":2,"executing":3,"succeeded":4,"failed":5,"cancelled":6,"viewers":2}"#
        ),
    ]

    @Test func eachMessageEncodesToItsGoldenLine() {
        for (message, line) in Self.golden {
            #expect(String(decoding: message.encoded, as: UTF8.self) == line + "\n")
        }
    }

    @Test func eachMessageDecodesBackToItself() throws {
        for (message, _) in Self.golden {
            #expect(try PublisherMessage.decode(bytes: message.encoded) == message)
        }
    }

    @Test func controlCharactersInStringsAreEscapedAndRoundTrip() throws {
        let message = PublisherMessage.bye(reason: "a\nb\u{1B}[2J\"\\")
        let line = String(decoding: message.encoded, as: UTF8.self)
        #expect(line.dropLast().firstIndex(of: "\n") == nil)
        #expect(try PublisherMessage.decode(bytes: message.encoded) == message)
    }

    @Test func streamEventsAndUnknownEventsAreNoMessage() throws {
        #expect(try PublisherMessage.decode(bytes: Array(#"{"event":"future","x":1}"#.utf8)) == nil)
        #expect(try PublisherMessage.decode(bytes: Array(#"{"event":"snapshot_end","seq":3}"#.utf8)) == nil)
    }

    @Test(arguments: [
        (
            #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"epoch":"e","seq":2,"resumed":false}"#,
            "role"
        ),
        (
            #"{"event":"welcome","protocol":1,"app":"a","queue":"q","pid":7,"role":"boss","epoch":"e","seq":2,"resumed":false}"#,
            "role"
        ),
        (#"{"event":"reply","id":"r","ok":true}"#, "seq"),
        (#"{"event":"reply","ok":false,"error":"not_found","message":"m"}"#, "id"),
        (#"{"event":"reply","id":1,"ok":false,"error":"nope","message":"m"}"#, "error"),
        (#"{"event":"reply","id":1.5,"ok":true,"seq":1}"#, "id"),
        (#"{"event":"heartbeat","t":-1,"seq":3}"#, "t"),
        (#"{"event":"heartbeat","seq":-3}"#, "seq"),
        (#"{"event":"skipped","from":9,"to":3}"#, "to"),
        (#"{"event":"shm","position":-1,"seq":3}"#, "position"),
        (#"{"event":"error","code":"bad_line","message":"m","supported":{"min":2,"max":1}}"#, "supported"),
        (#"{"event":"audit","seq":3,"by":"b","cmd":"c","text":"x"}"#, "t"),
        (#"{"event":"bye","reason":7}"#, "reason"),
        (
            #"{"t":1,"event":"status","suspended":false,"limit":4,"waiting":-1,"ready":0,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"viewers":0}"#,
            "waiting"
        ),
        (
            #"{"t":1,"event":"status","suspended":false,"limit":-2,"waiting":0,"ready":0,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"viewers":0}"#,
            "limit"
        ),
        (
            #"{"t":1,"event":"status","suspended":false,"limit":4,"waiting":0,"ready":0,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"viewers":-5}"#,
            "viewers"
        ),
        (
            #"{"t":1,"event":"status","suspended":false,"limit":4,"waiting":0,"ready":0,"executing":1e300,"succeeded":0,"failed":0,"cancelled":0,"viewers":0}"#,
            "executing"
        ),
    ])
    func malformedMessagesAreRefusedNamingTheField(line: String, field: String) {
        #expect {
            _ = try PublisherMessage.decode(bytes: Array(line.utf8))
        } throws: { error in
            guard let error = error as? EventLineError else { return false }
            return error.code == .badLine && error.message.contains("\"\(field)\"") && !error.message.contains("\n")
        }
    }

    @Test func aDeltaIsTheEncodersLineNumbered() {
        var encoder = JSONLinesEncoder(progressInterval: .zero)
        var bytes: [UInt8] = []
        let written = PublisherMessage.appendDelta(
            .added(time: .seconds(1), id: 1, name: "a", kind: .download, totalBytes: 9, dependencies: []), seq: 6,
            encoder: &encoder, to: &bytes)
        #expect(written)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"t":1.000,"event":"added","id":1,"op":"a","kind":"download","unit":"bytes","total":9,"after":[],"seq":6}"#
                + "\n")
    }
}
