import Testing
@testable import OpsMonitor
@testable import OpsWire

/// A keyframe carries the queue's per-second history in `snapshot_begin`'s `history` field, so a
/// viewer joining (or a replay starting at a keyframe) has the app's history at once; a reader
/// checks every value, and a keyframe without the field reads as before.
@Suite struct KeyframeHistoryTests {
    static func snapshot() -> QueueSnapshot {
        var store = MonitorStore()
        let a = store.add(name: "a", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .zero)
        let b = store.add(name: "b", kind: .download, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        store.transition(a, to: .executing, time: .seconds(1))
        store.transition(a, to: .finished, outcome: .succeeded, time: .seconds(2))
        store.transition(b, to: .finished, outcome: .failed, message: "x", time: .seconds(3))
        return store.snapshot(time: .seconds(4))
    }

    static func built(_ text: String) throws -> QueueSnapshot {
        var builder = EventSnapshotBuilder()
        let decoder = JSONLinesDecoder()
        for line in text.split(separator: "\n") { try builder.apply(try decoder.decode(line).line) }
        return builder.snapshot()
    }

    @Test func aJoiningViewerGetsTheHistory() throws {
        let original = Self.snapshot()
        let text = KeyframeEncoder.lines(original, seq: 5)
        #expect(
            text.contains(
                #""history":{"window":900,"newest":3,"succeeded":[0,0,1,0],"failed":[0,0,0,1],"cancelled":[0,0,0,0],"bytes":[0,0,10,0],"running":[0,1,0,0],"waiting":[2,1,1,0]}"#
            ))
        let joined = try Self.built(text)
        #expect(joined.history == original.history)
        #expect(joined.history.values(.failed, endingAt: .seconds(4), count: 3) == [0, 1, 0])
    }

    @Test func aKeyframeWithoutHistoryStillLoads() throws {
        let text = KeyframeEncoder.lines(Self.snapshot(), seq: 5)
        let start = try #require(text.range(of: #","history":"#))
        let end = try #require(text[start.upperBound...].range(of: "]}"))
        let older = text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
        #expect(!older.contains("history\":{"))
        let joined = try Self.built(older)
        #expect(joined.history.isEmpty)
        #expect(joined.counts.failed == 1)
    }

    @Test func anEmptyHistoryIsNotSent() {
        #expect(!KeyframeEncoder.lines(QueueSnapshot(), seq: 1).contains("history"))
    }

    @Test(arguments: [
        (#""history":3"#, "must be an object"),
        (#""history":{"window":1,"newest":0}"#, "must be 2 to 86400 seconds"),
        (#""history":{"window":99999999,"newest":0}"#, "must be 2 to 86400 seconds"),
        (#""history":{"window":10,"newest":-1}"#, "must not be negative"),
        (#""history":{"window":10,"newest":1,"succeeded":[1]}"#, "\"failed\" must be an array"),
        (
            #""history":{"window":2,"newest":1,"succeeded":[1,1,1],"failed":[],"cancelled":[],"bytes":[],"running":[],"waiting":[]}"#,
            "at most the window"
        ),
        (
            #""history":{"window":9,"newest":1,"succeeded":[1,1],"failed":[1],"cancelled":[],"bytes":[],"running":[],"waiting":[]}"#,
            "as many seconds as the others"
        ),
        (
            #""history":{"window":9,"newest":1,"succeeded":[-1],"failed":[1],"cancelled":[1],"bytes":[1],"running":[1],"waiting":[1]}"#,
            "integers from 0"
        ),
        (
            #""history":{"window":9,"newest":1,"succeeded":["x"],"failed":[1],"cancelled":[1],"bytes":[1],"running":[1],"waiting":[1]}"#,
            "integers from 0"
        ),
    ])
    func aHostileHistoryIsRefusedWithItsField(_ field: String, _ problem: String) {
        let line =
            #"{"t":5,"event":"snapshot_begin","seq":1,"suspended":false,"limit":1,"waiting":0,"ready":0,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"bytes":0,"total":0,"rate":0,"operations":0,"#
            + field + "}"
        #expect {
            _ = try JSONLinesDecoder().decode(line)
        } throws: { error in
            (error as? EventLineError)?.message.contains(problem) == true
        }
    }

    @Test func hugeValuesSaturateAndTheNewestSecondIsNoLaterThanTheKeyframe() throws {
        let line =
            #"{"t":5,"event":"snapshot_begin","seq":1,"suspended":false,"limit":1,"waiting":0,"ready":0,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"bytes":0,"total":0,"rate":0,"operations":0,"history":{"window":9,"newest":9223372036854775807,"succeeded":[9223372036854775807],"failed":[0],"cancelled":[0],"bytes":[9223372036854775807],"running":[0],"waiting":[0]}}"#
        guard case .keyframeBegin(let header) = try JSONLinesDecoder().decode(line).line else {
            Issue.record("not a keyframe begin")
            return
        }
        let history = try #require(header.history)
        #expect(history.currentSecond == 5)
        #expect(history.values(.succeeded, endingAt: .seconds(5), count: 1) == [Int64(UInt32.max)])
        #expect(history.values(.bytes, endingAt: .seconds(5), count: 1) == [.max])
    }

    @Test func aLongHistoryKeepsItsNewestSecondsWithinTheBudget() throws {
        var history = QueueHistory(window: QueueHistory.maximumWindow)
        for second in stride(from: 0, to: 20_000, by: 1) {
            history.record(at: .seconds(second), bytes: 123_456_789_012, running: 1_000_000, waiting: 9_999_999)
        }
        var snapshot = QueueSnapshot(time: .seconds(20_000))
        snapshot.history = history
        let begin = String(KeyframeEncoder.lines(snapshot, seq: 1).split(separator: "\n")[0])
        #expect(begin.utf8.count < KeyframeEncoder.historyBudget + 1_000)
        guard case .keyframeBegin(let header) = try JSONLinesDecoder().decode(begin).line else {
            Issue.record("not a keyframe begin")
            return
        }
        let decoded = try #require(header.history)
        #expect(decoded.currentSecond == 19_999)
        let kept = decoded.seconds(endingAt: .seconds(19_999))
        #expect(kept.count > 500, "\(kept.count) seconds kept")
        #expect(kept.last?.value(.bytes) == 123_456_789_012)
    }
}
