import Testing
@testable import OpsMonitor
@testable import OpsWire

@Suite struct JSONLinesDecoderTests {
    private let decoder = JSONLinesDecoder()

    @Test func readsBackEveryEventTheEncoderWrites() throws {
        let events: [MonitorEvent] = [
            .added(
                time: .milliseconds(5), id: 3, name: "img \"3\" ✓", kind: .download, totalBytes: 100,
                dependencies: [1, 2]),
            .state(time: .milliseconds(6), id: 3, from: nil, to: .waiting, outcome: nil, message: nil),
            .state(time: .milliseconds(1250), id: 3, from: .ready, to: .executing, outcome: nil, message: nil),
            .progress(time: .seconds(2), id: 3, completedBytes: 50, totalBytes: 100, bytesPerSecond: 25, retries: 1),
            .queue(
                time: .seconds(3), isSuspended: true, maxConcurrentOperationCount: 4,
                counts: StateCounts(ready: 2, executing: 1, failed: 4), reason: "queue paused"),
            .state(
                time: .seconds(4), id: 3, from: .executing, to: .finished, outcome: .failed, message: "reset\n\t\u{1}"),
        ]
        var encoder = JSONLinesEncoder(progressInterval: .zero)
        var text = ""
        for event in events { encoder.encode(event, into: &text) }
        let decoded = try text.split(separator: "\n").map { try decoder.decode($0).line }
        #expect(decoded == events.map { .event($0) })
    }

    @Test func readsTheSummaryLine() throws {
        let snapshot = QueueSnapshot(
            time: .seconds(12), counts: StateCounts(succeeded: 3, failed: 1), completedBytes: 70, totalBytes: 90)
        let line = try decoder.decode(
            JSONLinesEncoder.summary(snapshot, duration: .milliseconds(11_500), interrupted: true))
        #expect(
            line.line
                == .summary(
                    RunSummary(
                        time: .seconds(12), operations: 4, counts: StateCounts(succeeded: 3, failed: 1),
                        completedBytes: 70,
                        totalBytes: 90, duration: .milliseconds(11_500), interrupted: true)))
    }

    @Test func ignoresUnknownFieldsAndPassesUnknownEventsThrough() throws {
        let line = try decoder.decode(
            #"{"t":1.5,"event":"state","id":2,"from":"ready","to":"executing","seq":17,"extra":{"a":[1,2.5e3,null,true]}}"#
        )
        #expect(
            line.line
                == .event(
                    .state(time: .milliseconds(1500), id: 2, from: .ready, to: .executing, outcome: nil, message: nil)))
        #expect(line.seq == 17)
        #expect(line.fields["extra"]?.objectValue?["a"] == .array([.int(1), .double(2500), .null, .bool(true)]))
        let other = try decoder.decode(#"{"event":"heartbeat","seq":9}"# + "\n")
        #expect(other.line == .other(event: "heartbeat"))
        #expect(other.seq == 9)
    }

    /// Found by Fuzz/FuzzRecording: a value with a newline split the error (and a recording's
    /// one-line message) in two; an escape sequence would have reached the terminal.
    @Test func quotesAnUnknownValueAsJSONSoTheErrorStaysOneLine() {
        let line = #"{"event":"state","t":0,"id":1,"to":"ex\necuting\u001b[2J"}"#
        #expect(
            throws: EventLineError(.badLine, #"state: field "to" has unknown value "ex\necuting\u001b[2J""#)
        ) { try decoder.decode(line) }
    }

    @Test func rejectsMalformedLinesNamingTheProblem() {
        let cases: [(String, String)] = [
            ("", "invalid JSON at byte 1: unexpected end of line"),
            ("{\"event\":\"added\"", "invalid JSON at byte 17: expected ',' or '}'"),
            ("[1,2]", "line is not a JSON object"),
            ("{\"t\":1}", "line has no \"event\" string"),
            (#"{"event":"added","t":0,"id":1,"op":"a","kind":"download"}"#, "added: field \"total\" is missing"),
            (
                #"{"event":"added","t":0,"id":"1","op":"a","kind":"download","total":1}"#,
                "added: field \"id\" must be an integer"
            ),
            (#"{"event":"state","t":0,"id":1,"to":"sleeping"}"#, "state: field \"to\" has unknown value \"sleeping\""),
            (
                #"{"event":"state","t":-1,"id":1,"to":"ready"}"#,
                "state: field \"t\" must be seconds between 0 and 1e9 (got -1)"
            ),
            (
                #"{"event":"snapshot_begin","t":1000000000000000,"seq":0,"operations":0}"#,
                "snapshot_begin: field \"t\" must be seconds between 0 and 1e9 (got 1000000000000000)"
            ),
            (
                #"{"event":"snapshot_begin","t":1e15,"seq":0,"operations":0}"#,
                "snapshot_begin: field \"t\" must be seconds between 0 and 1e9 (got 1000000000000000)"
            ),
            (
                #"{"event":"state","t":2.5e30,"id":1,"to":"ready"}"#,
                "state: field \"t\" must be seconds between 0 and 1e9 (got 2.5e+30)"
            ),
            (#"{"event":"queue","t":0,"suspended":1,"limit":1}"#, "queue: field \"suspended\" must be true or false"),
            (#"{"event":"x"} {"#, "invalid JSON at byte 15: unexpected text after the value"),
            (#"{"event":"x","seq":-3}"#, "x: field \"seq\" must not be negative"),
            (#"{"event":"\ud800"}"#, "invalid JSON at byte 17: unpaired surrogate"),
            ("{\"event\":\"a\u{1}\"}", "invalid JSON at byte 12: control character in string"),
            (String(repeating: "[", count: 40), "invalid JSON at byte 33: nested deeper than 32"),
        ]
        for (line, message) in cases {
            #expect(throws: EventLineError(.badLine, message), "\(line)") { try decoder.decode(line) }
        }
    }

    @Test func rejectsInvalidUTF8() {
        var bytes = Array(#"{"event":"x","op":"#.utf8)
        bytes += [0x22, 0xC3, 0x28, 0x22, 0x7D]
        #expect(throws: EventLineError(.badLine, "invalid JSON at byte 22: string is not valid UTF-8")) {
            try decoder.decode(bytes: bytes)
        }
    }

    @Test func boundsTheLineLength() throws {
        let small = JSONLinesDecoder(maximumLineLength: 32)
        let fits = #"{"event":"x","pad":"0123456789"}"#
        #expect(fits.utf8.count == 32)
        #expect(try small.decode(fits + "\r\n").line == .other(event: "x"))
        #expect(throws: EventLineError(.lineTooLong, "line is 33 bytes, limit 32")) {
            try small.decode(#"{"event":"x","pad":"01234567890"}"#)
        }
        #expect(throws: EventLineError(.lineTooLong, "line is 100000 bytes, limit 32")) {
            try small.decode(String(repeating: " ", count: 100_000))
        }
        #expect(JSONLinesDecoder().maximumLineLength == 65_536)
    }

    @Test func keyframeLinesRoundTrip() throws {
        var op = OperationSnapshot(
            id: 4, name: "up \"x\"", kind: .upload, lifecycle: .finished, outcome: .failed, message: "boom",
            completedUnits: 40, totalUnits: 100, unitsPerSecond: 0, retries: 1, dependencies: [1, 2],
            addedAt: .nanoseconds(1_000_000_001), startedAt: .milliseconds(1500), finishedAt: .seconds(3),
            history: [
                StateChange(time: .nanoseconds(1_000_000_001), lifecycle: .ready),
                StateChange(time: .seconds(3), lifecycle: .finished, outcome: .failed),
            ],
            retryLog: ["attempt 1 failed at 50%: reset"])
        var unnamed = OperationSnapshot(
            id: 9, name: "", kind: .process, unit: .items, lifecycle: .executing, completedUnits: 3, totalUnits: 10,
            unitsPerSecond: 123.456789, retries: 2, nextAttemptAt: .nanoseconds(7_000_000_003))
        unnamed.explicitName = nil
        let log = [
            LogEntry(
                time: .seconds(3), operationID: 4, name: "up \"x\"", from: .executing, to: .finished, outcome: .failed,
                message: "boom"),
            LogEntry(
                time: .seconds(4), operationID: 9, name: nil, from: .ready, to: .executing, outcome: nil, message: nil),
            LogEntry(time: .seconds(5), kind: .action, text: "operator cancelled #2"),
            LogEntry(time: .seconds(6), kind: .retry, operationID: 4, text: "up: reset, retry 1"),
        ]
        let snapshot = QueueSnapshot(
            time: .milliseconds(6_500), isSuspended: true, maxConcurrentOperationCount: 5,
            counts: StateCounts(executing: 1, failed: 1, cancelled: 3), completedBytes: 43, totalBytes: 110,
            bytesPerSecond: 123.456789, operations: ChunkedArray([op, unnamed]), evictedCount: 3, log: log, version: 77)
        let lines = KeyframeEncoder.lines(snapshot, seq: 12).split(separator: "\n")
        #expect(lines.count == 1 + 2 + 4 + 1)
        var builder = EventSnapshotBuilder()
        for line in lines { try builder.apply(decoder.decode(line).line) }
        let rebuilt = builder.snapshot()
        #expect(Array(rebuilt.operations) == Array(snapshot.operations))
        #expect(rebuilt.log == snapshot.log)
        #expect(rebuilt.counts == snapshot.counts)
        #expect(abs(rebuilt.bytesPerSecond - snapshot.bytesPerSecond) <= 0.1 * snapshot.bytesPerSecond)
        #expect(rebuilt.evictedCount == 3)
        #expect(rebuilt.isSuspended && rebuilt.maxConcurrentOperationCount == 5)
        #expect(rebuilt.time == snapshot.time)
        op.name = "other"
        #expect(rebuilt.operation(id: 4)?.name == "up \"x\"")
        #expect(rebuilt.operation(id: 9)?.name == "op-9")
        #expect(rebuilt.operation(id: 9)?.unit == .items)
        #expect(rebuilt.operation(id: 9)?.nextAttemptAt == .nanoseconds(7_000_000_003))
        #expect(String(lines[2]).contains(#""retries":2,"next":7.000000003,"#))
        #expect(
            String(lines[1]).hasPrefix(
                #"{"event":"snapshot_op","id":4,"op":"up \"x\"","kind":"upload","unit":"bytes","state":"finished","outcome":"failed""#
            )
        )
    }
}
