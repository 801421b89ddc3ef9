import Testing

@testable import OpsMonitor
@testable import OpsWire

/// The byte path (what headless mode, recordings and the publisher write) and the String path
/// give the same bytes, and both are the pinned wire format.
@Suite struct JSONLinesBytesTests {
    /// Every event kind, with and without outcome, message and next; names needing escapes,
    /// CJK, emoji, control and bidi characters; unknown ids, negative and extreme numbers.
    static let events: [MonitorEvent] = [
        .added(
            time: .microseconds(1500), id: 1, name: #"say "hi" \ now"#, kind: .upload, totalBytes: 0, dependencies: []),
        .added(
            time: .nanoseconds(999_999_999), id: 123_456_789, name: "下载-文件.bin 🚀", kind: .process, unit: .items,
            totalBytes: .max, dependencies: [1, 2, 3]),
        .added(
            time: .seconds(86_400) + .milliseconds(7), id: 3,
            name: "a\u{1B}[2J\u{7F}\u{9B}\u{202E}\u{2028}\u{61C}\t\r\n\u{0}b\u{1F}é", kind: .other, totalBytes: 42,
            dependencies: [-1]),
        .state(time: .milliseconds(-5), id: 1, from: nil, to: .waiting, outcome: nil, message: nil),
        .state(time: .milliseconds(10), id: 123_456_789, from: .ready, to: .executing, outcome: nil, message: nil),
        .state(time: .milliseconds(999), id: 3, from: .executing, to: .finished, outcome: .succeeded, message: nil),
        .state(
            time: .milliseconds(1_000), id: 1, from: .executing, to: .finished, outcome: .failed,
            message: "reset \"x\"\n日本\u{1}"),
        .state(time: .milliseconds(1_001), id: 999, from: .waiting, to: .finished, outcome: .cancelled, message: ""),
        .progress(
            time: .milliseconds(12_345), id: 123_456_789, completedBytes: 0, totalBytes: 10, bytesPerSecond: 1234.5,
            retries: 2, nextAttemptAt: .milliseconds(13_000)),
        .progress(time: .seconds(3), id: -7, completedBytes: -1, totalBytes: .min, bytesPerSecond: 0, retries: 0),
        .progress(
            time: .seconds(4), id: 123_456_789, completedBytes: 10, totalBytes: 10, bytesPerSecond: 1e12, retries: 10),
        .queue(
            time: .seconds(5), isSuspended: false, maxConcurrentOperationCount: 1_000,
            counts: StateCounts(
                waiting: 1, ready: 22, executing: 333, succeeded: 4_444, failed: 55_555, cancelled: 666_666),
            reason: #"paused by "ops" \ 管理"#),
        .queue(time: .zero, isSuspended: true, maxConcurrentOperationCount: 1, counts: StateCounts(), reason: ""),
    ]
    /// The lines `events` encode to (one each, newline left out), as the wire format has them.
    static let expected: [String] = [
        ##"{"t":0.002,"event":"added","id":1,"op":"say \"hi\" \\ now","kind":"upload","unit":"bytes","total":0,"after":[]}"##,
        ##"{"t":1.000,"event":"added","id":123456789,"op":"下载-文件.bin 🚀","kind":"process","unit":"items","total":9223372036854775807,"after":[1,2,3]}"##,
        ##"{"t":86400.007,"event":"added","id":3,"op":"a\u001b[2J\u007f\u009b\u202e\u2028\u061c\t\r\n\u0000b\u001fé","kind":"other","unit":"bytes","total":42,"after":[-1]}"##,
        ##"{"t":0.000,"event":"state","id":1,"op":"say \"hi\" \\ now","from":null,"to":"waiting"}"##,
        ##"{"t":0.010,"event":"state","id":123456789,"op":"下载-文件.bin 🚀","from":"ready","to":"executing"}"##,
        ##"{"t":0.999,"event":"state","id":3,"op":"a\u001b[2J\u007f\u009b\u202e\u2028\u061c\t\r\n\u0000b\u001fé","from":"executing","to":"finished","outcome":"succeeded"}"##,
        ##"{"t":1.000,"event":"state","id":1,"op":"say \"hi\" \\ now","from":"executing","to":"finished","outcome":"failed","message":"reset \"x\"\n日本\u0001"}"##,
        ##"{"t":1.001,"event":"state","id":999,"op":"#999","from":"waiting","to":"finished","outcome":"cancelled","message":""}"##,
        ##"{"t":12.345,"event":"progress","id":123456789,"op":"下载-文件.bin 🚀","bytes":0,"total":10,"rate":1235,"retries":2,"next":13.000}"##,
        ##"{"t":3.000,"event":"progress","id":-7,"op":"#-7","bytes":-1,"total":-9223372036854775808,"rate":0,"retries":0}"##,
        ##"{"t":4.000,"event":"progress","id":123456789,"op":"下载-文件.bin 🚀","bytes":10,"total":10,"rate":1000000000000,"retries":10}"##,
        ##"{"t":5.000,"event":"queue","suspended":false,"limit":1000,"waiting":1,"ready":22,"executing":333,"succeeded":4444,"failed":55555,"cancelled":666666,"reason":"paused by \"ops\" \\ 管理"}"##,
        ##"{"t":0.000,"event":"queue","suspended":true,"limit":1,"waiting":0,"ready":0,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"reason":""}"##,
    ]

    @Test func bytePathWritesThePinnedLineForEveryEvent() {
        var encoder = JSONLinesEncoder(progressInterval: .zero)
        var lines: [String] = []
        for event in Self.events {
            var bytes: [UInt8] = []
            encoder.encode(event, into: &bytes)
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        #expect(lines == Self.expected.map { $0 + "\n" })
    }

    @Test func stringPathAppendsTheBytePathsBytes() {
        var byteEncoder = JSONLinesEncoder(progressInterval: .milliseconds(250))
        var stringEncoder = JSONLinesEncoder(progressInterval: .milliseconds(250))
        var bytes: [UInt8] = []
        var text = "prefix\n"
        // Progress 100 ms apart: some are held back, the last held one comes out before finish.
        let throttled: [MonitorEvent] = (1...5).map { step in
            .progress(
                time: .milliseconds(step * 100), id: 1, completedBytes: Int64(step), totalBytes: 10,
                bytesPerSecond: 1, retries: 0)
        }
        let finish = MonitorEvent.state(
            time: .seconds(1), id: 1, from: .executing, to: .finished, outcome: .succeeded, message: nil)
        for event in Self.events + throttled + [finish] {
            byteEncoder.encode(event, into: &bytes)
            stringEncoder.encode(event, into: &text)
            #expect(Array(text.utf8.dropFirst(7)) == bytes)
        }
        #expect(text.split(separator: "\n").count == 1 + Self.events.count + 4)
    }

    @Test func integersAndTimesAreWrittenInPlace() {
        var bytes: [UInt8] = []
        for value in [0, 9, 10, 99, 100, -1, -10, Int.max, Int.min] {
            JSONBytes.append(value, to: &bytes)
            bytes.append(UInt8(ascii: " "))
        }
        JSONBytes.append(UInt64.max, to: &bytes)
        for time in [Duration.zero, .milliseconds(7), .milliseconds(70), .milliseconds(1_234_567), .seconds(-3)] {
            bytes.append(UInt8(ascii: " "))
            JSONBytes.appendTime(time, to: &bytes)
        }
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "0 9 10 99 100 -1 -10 9223372036854775807 -9223372036854775808 18446744073709551615"
                + " 0.000 0.007 0.070 1234.567 0.000")
    }
}
