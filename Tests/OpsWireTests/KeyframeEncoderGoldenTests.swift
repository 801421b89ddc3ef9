import Testing
@testable import OpsMonitor
@testable import OpsWire

/// The keyframe's exact bytes for a snapshot that uses every field and every escape: the wire
/// format viewers and recordings rely on, pinned byte for byte.
@Suite struct KeyframeEncoderGoldenTests {
    static let snapshot: QueueSnapshot = {
        let done = OperationSnapshot(
            id: 1, name: "plain", kind: .download, lifecycle: .finished, outcome: .succeeded, completedUnits: 2_048,
            totalUnits: 2_048, addedAt: .nanoseconds(1), startedAt: .milliseconds(250),
            finishedAt: .nanoseconds(1_999_999_999),
            history: [
                StateChange(time: .nanoseconds(1), lifecycle: .ready),
                StateChange(time: .milliseconds(250), lifecycle: .executing),
                StateChange(time: .nanoseconds(1_999_999_999), lifecycle: .finished, outcome: .succeeded),
            ])
        let retrying = OperationSnapshot(
            id: 2, name: "写真 \"2\"\n\u{1B}[2J", kind: .upload, lifecycle: .executing, completedUnits: 10,
            totalUnits: 100, unitsPerSecond: 1234.5, retries: 2, nextAttemptAt: .milliseconds(3_500),
            dependencies: [1], addedAt: .seconds(1), startedAt: .seconds(2),
            history: [StateChange(time: .seconds(1), lifecycle: .waiting)],
            retryLog: ["attempt 1 failed at 50%: reset", "tab\there \u{202E}rtl"])
        var unnamed = OperationSnapshot(
            id: 3, name: "", kind: .process, unit: .items, lifecycle: .finished, outcome: .failed,
            message: "boom \\ \"x\"", totalUnits: 7, unitsPerSecond: .nan, dependencies: [1, 2], addedAt: .seconds(12),
            finishedAt: .seconds(13))
        unnamed.explicitName = nil
        let huge = OperationSnapshot(id: 4, name: "huge", unitsPerSecond: 1e21, addedAt: .seconds(100_000))
        return QueueSnapshot(
            time: .nanoseconds(12_000_000_001), isSuspended: true, maxConcurrentOperationCount: 3,
            counts: StateCounts(ready: 1, executing: 1, succeeded: 1, failed: 1), completedBytes: 2_058,
            totalBytes: 2_155, bytesPerSecond: 0.1, operations: ChunkedArray([done, retrying, unnamed, huge]),
            evictedCount: 9,
            log: [
                LogEntry(time: .milliseconds(5), kind: .action, text: "operator cancelled #2 \"now\""),
                LogEntry(
                    time: .seconds(13), operationID: 3, name: nil, from: .executing, to: .finished, outcome: .failed,
                    message: "boom"),
                LogEntry(
                    time: .seconds(2), operationID: 2, name: "写真", from: .ready, to: .executing, outcome: nil,
                    message: nil),
                LogEntry(time: .seconds(3), kind: .retry, operationID: 2, text: "写真: reset, retry 1"),
            ],
            version: 41)
    }()

    static let golden = #"""
        {"t":12.000000001,"event":"snapshot_begin","seq":7,"suspended":true,"limit":3,"waiting":0,"ready":1,"executing":1,"succeeded":1,"failed":1,"cancelled":0,"bytes":2058,"total":2155,"rate":0.1,"evicted":9,"operations":4,"log":4,"version":41}
        {"event":"snapshot_op","id":1,"op":"plain","kind":"download","unit":"bytes","state":"finished","outcome":"succeeded","bytes":2048,"total":2048,"rate":0.0,"retries":0,"after":[],"added":0.000000001,"started":0.250000000,"finished":1.999999999,"history":[{"t":0.000000001,"state":"ready"},{"t":0.250000000,"state":"executing"},{"t":1.999999999,"state":"finished","outcome":"succeeded"}],"retry_log":[]}
        {"event":"snapshot_op","id":2,"op":"写真 \"2\"\n\u001b[2J","kind":"upload","unit":"bytes","state":"executing","bytes":10,"total":100,"rate":1234.5,"retries":2,"next":3.500000000,"after":[1],"added":1.000000000,"started":2.000000000,"history":[{"t":1.000000000,"state":"waiting"}],"retry_log":["attempt 1 failed at 50%: reset","tab\there \u202ertl"]}
        {"event":"snapshot_op","id":3,"op":"op-3","kind":"process","unit":"items","state":"finished","outcome":"failed","message":"boom \\ \"x\"","bytes":0,"total":7,"rate":0,"retries":0,"after":[1,2],"added":12.000000000,"finished":13.000000000,"history":[],"retry_log":[]}
        {"event":"snapshot_op","id":4,"op":"huge","kind":"other","unit":"bytes","state":"ready","bytes":0,"total":0,"rate":1e+21,"retries":0,"after":[],"added":100000.000000000,"history":[],"retry_log":[]}
        {"t":0.005000000,"event":"snapshot_log","kind":"action","text":"operator cancelled #2 \"now\""}
        {"t":13.000000000,"event":"snapshot_log","kind":"state","id":3,"from":"executing","to":"finished","outcome":"failed","message":"boom"}
        {"t":2.000000000,"event":"snapshot_log","kind":"state","id":2,"op":"写真","from":"ready","to":"executing"}
        {"t":3.000000000,"event":"snapshot_log","kind":"retry","id":2,"text":"写真: reset, retry 1"}
        {"event":"snapshot_end","seq":7}
        """# + "\n"

    @Test func bytesAreTheGolden() {
        #expect(KeyframeEncoder.bytes(Self.snapshot, seq: 7) == Array(Self.golden.utf8))
        #expect(KeyframeEncoder.lines(Self.snapshot, seq: 7) == Self.golden)
    }

    @Test func encodeAppendsAfterWhatIsThere() {
        var bytes = Array("{\"event\":\"before\"}\n".utf8)
        KeyframeEncoder.encode(Self.snapshot, seq: 7, into: &bytes)
        #expect(bytes == Array(("{\"event\":\"before\"}\n" + Self.golden).utf8))
    }

    @Test func theGoldenLinesReadBackToTheSnapshot() throws {
        let decoder = JSONLinesDecoder()
        var builder = EventSnapshotBuilder()
        for line in Self.golden.split(separator: "\n") { try builder.apply(decoder.decode(line).line) }
        let rebuilt = builder.snapshot()
        #expect(Array(rebuilt.operations.map(\.name)) == ["plain", "写真 \"2\"\n\u{1B}[2J", "op-3", "huge"])
        #expect(rebuilt.operation(id: 2)?.retryLog == Self.snapshot.operation(id: 2)?.retryLog)
        #expect(rebuilt.operation(id: 2)?.nextAttemptAt == .milliseconds(3_500))
        #expect(rebuilt.operation(id: 1)?.finishedAt == .nanoseconds(1_999_999_999))
        #expect(rebuilt.operation(id: 3)?.message == "boom \\ \"x\"")
        #expect(rebuilt.log == Self.snapshot.log)
        #expect(rebuilt.time == .nanoseconds(12_000_000_001))
    }
}
