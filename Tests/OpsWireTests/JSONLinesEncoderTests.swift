import Testing
@testable import OpsMonitor
@testable import OpsWire

@Suite struct JSONLinesEncoderTests {
    @Test func encodesEachEventKindAsOneLine() {
        var encoder = JSONLinesEncoder()
        var out = ""
        encoder.encode(
            .added(
                time: .milliseconds(5), id: 3, name: "img \"3\"", kind: .download, totalBytes: 100,
                dependencies: [1, 2]), into: &out)
        encoder.encode(
            .state(time: .milliseconds(1250), id: 3, from: .ready, to: .executing, outcome: nil, message: nil),
            into: &out)
        encoder.encode(
            .progress(time: .seconds(2), id: 3, completedBytes: 50, totalBytes: 100, bytesPerSecond: 25.4, retries: 1),
            into: &out)
        encoder.encode(
            .queue(
                time: .seconds(3), isSuspended: true, maxConcurrentOperationCount: 4,
                counts: StateCounts(ready: 2, executing: 1), reason: "queue paused"), into: &out)
        encoder.encode(
            .state(time: .seconds(4), id: 3, from: .executing, to: .finished, outcome: .failed, message: "reset\n"),
            into: &out)
        #expect(
            out.split(separator: "\n", omittingEmptySubsequences: false) == [
                #"{"t":0.005,"event":"added","id":3,"op":"img \"3\"","kind":"download","unit":"bytes","total":100,"after":[1,2]}"#,
                #"{"t":1.250,"event":"state","id":3,"op":"img \"3\"","from":"ready","to":"executing"}"#,
                #"{"t":2.000,"event":"progress","id":3,"op":"img \"3\"","bytes":50,"total":100,"rate":25,"retries":1}"#,
                #"{"t":3.000,"event":"queue","suspended":true,"limit":4,"waiting":0,"ready":2,"executing":1,"succeeded":0,"failed":0,"cancelled":0,"reason":"queue paused"}"#,
                #"{"t":4.000,"event":"state","id":3,"op":"img \"3\"","from":"executing","to":"finished","outcome":"failed","message":"reset\n"}"#,
                "",
            ])
    }

    @Test func throttlesProgressPerOperationButKeepsCompletionAndRetries() {
        var encoder = JSONLinesEncoder(progressInterval: .milliseconds(250))
        var out = ""
        for step in 0...10 {  // every 100 ms
            encoder.encode(
                .progress(
                    time: .milliseconds(step * 100), id: 1, completedBytes: Int64(step * 10), totalBytes: 100,
                    bytesPerSecond: 100, retries: step == 5 ? 1 : 0), into: &out)
        }
        let bytes = out.split(separator: "\n").map { line -> Int in
            let part = line.split(separator: ",").first { $0.hasPrefix("\"bytes\":") } ?? ""
            return Int(part.dropFirst(8)) ?? -1
        }
        // 0 (first), 30 (≥250 ms), 50 (retries changed), 60 (retries back to 0), 90, 100 (complete)
        #expect(bytes == [0, 30, 50, 60, 90, 100])
    }

    /// A throttled progress value is written before its operation's `finished` line, at the
    /// finish's time: lines of other operations came in between, and `t` never goes back.
    /// Found by FuzzEventLine: a decoded line's rate of 1e300 crashed the encoder (Double to
    /// Int64 overflow) when written back. It is clamped.
    @Test func anOutOfRangeRateIsClampedNotACrash() {
        var encoder = JSONLinesEncoder(progressInterval: .zero)
        var bytes: [UInt8] = []
        encoder.encode(
            .progress(
                time: .seconds(1), id: 1, completedBytes: 1, totalBytes: 2, bytesPerSecond: 1e300, retries: 0,
                nextAttemptAt: nil, retryError: nil),
            into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""rate":9223372036854775807"#))
    }

    @Test func aHeldProgressValueIsWrittenAtItsFinishTime() {
        var encoder = JSONLinesEncoder(progressInterval: .milliseconds(250))
        var out = ""
        encoder.encode(
            .progress(
                time: .milliseconds(100), id: 1, completedBytes: 10, totalBytes: 100, bytesPerSecond: 1, retries: 0),
            into: &out)
        encoder.encode(
            .progress(
                time: .milliseconds(200), id: 1, completedBytes: 40, totalBytes: 100, bytesPerSecond: 1, retries: 0),
            into: &out)
        encoder.encode(
            .state(time: .milliseconds(300), id: 2, from: .ready, to: .executing, outcome: nil, message: nil),
            into: &out)
        encoder.encode(
            .state(time: .milliseconds(320), id: 1, from: .executing, to: .finished, outcome: .cancelled, message: nil),
            into: &out)
        let times = out.split(separator: "\n").map { $0.dropFirst(5).prefix(5) }
        #expect(times == ["0.100", "0.300", "0.320", "0.320"])
        #expect(out.split(separator: "\n")[2].contains(##""event":"progress","id":1,"op":"#1","bytes":40"##))
    }

    @Test func summaryCarriesCountsBytesAndInterruption() {
        let snapshot = QueueSnapshot(
            time: .seconds(12), counts: StateCounts(succeeded: 3, failed: 1), completedBytes: 70, totalBytes: 90)
        #expect(
            JSONLinesEncoder.summary(snapshot, duration: .seconds(12), interrupted: true)
                == #"{"t":12.000,"event":"summary","operations":4,"waiting":0,"ready":0,"executing":0,"succeeded":3,"failed":1,"cancelled":0,"bytes":70,"total":90,"duration":12.000,"interrupted":true}"#
                + "\n")
    }

    @Test func escapesControlCharacters() {
        var out = ""
        JSONLinesEncoder.appendString("a\u{1}b\\", &out)
        #expect(out == #""a\u0001b\\""#)
    }
}

@Suite struct JSONLinesThrottleFlushTests {
    @Test func writesTheHeldBackProgressBeforeTheFinishLine() {
        var encoder = JSONLinesEncoder(progressInterval: .seconds(1))
        var out = ""
        encoder.encode(
            .added(time: .zero, id: 1, name: "a", kind: .download, totalBytes: 100, dependencies: []), into: &out)
        encoder.encode(
            .progress(time: .zero, id: 1, completedBytes: 10, totalBytes: 100, bytesPerSecond: 1, retries: 0),
            into: &out)
        encoder.encode(
            .progress(
                time: .milliseconds(100), id: 1, completedBytes: 20, totalBytes: 100, bytesPerSecond: 1, retries: 0),
            into: &out)
        encoder.encode(
            .progress(
                time: .milliseconds(200), id: 1, completedBytes: 30, totalBytes: 100, bytesPerSecond: 1, retries: 0),
            into: &out)
        encoder.encode(
            .state(time: .milliseconds(300), id: 1, from: .executing, to: .finished, outcome: .failed, message: nil),
            into: &out)
        let kinds = out.split(separator: "\n").map { line in
            line.contains("\"progress\"")
                ? (line.contains("\"bytes\":30") ? "p30" : line.contains("\"bytes\":10") ? "p10" : "p?")
                : line.contains("\"state\"") ? "finish" : "added"
        }
        #expect(kinds == ["added", "p10", "p30", "finish"])
    }
}
