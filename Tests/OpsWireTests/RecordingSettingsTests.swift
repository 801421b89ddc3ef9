import Foundation
import Testing

@testable import OpsMonitor
@testable import OpsWire

/// A queue's settings (its concurrency limit) are in no event until they change: a cursor
/// before the first keyframe must still show them, and say which event it shows (`seq`).
struct RecordingSettingsTests {
    /// A recording of a queue limited to 3: one operation added every 0.1 s for 10 s, a keyframe
    /// every 5 s, and no keyframe at the start (as recordings made before it was written).
    static func writeLimitedToThree(_ path: String, queueEvent: Bool = false) throws {
        let writer = try RecordingWriter(
            path: path, header: RecordingTests.header, policy: .init(interval: .seconds(5), events: 1_000))
        var store = MonitorStore()
        store.recordsEvents = true
        store.maxConcurrentOperationCount = 3
        for index in 0..<100 {
            let time = Duration.milliseconds(100 * Int64(index + 1))
            _ = store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: time)
            if queueEvent && index == 10 { store.queueChanged(reason: "an action", time: time) }
            let snapshot = store.snapshot(time: time)
            try writer.append(store.drainEvents(), keyframe: writer.wantsKeyframe(at: time) ? snapshot : nil)
        }
        writer.close()
    }

    @Test func beforeTheFirstKeyframeTheLimitIsTheRecordingsFirst() throws {
        let path = RecordingTests.temporaryPath("limit")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeLimitedToThree(path)
        let reader = try RecordingReader(path: path)
        #expect(reader.initialSettings == .init(isSuspended: false, maxConcurrentOperationCount: 3))
        let early = try reader.cursor(at: .seconds(2))
        #expect(early.builder.snapshot().maxConcurrentOperationCount == 3)
        #expect(early.seq == 40, "two events (added, state) per operation, 20 operations by 2 s")
        let later = try reader.cursor(at: .milliseconds(7_050))
        #expect(later.builder.snapshot().maxConcurrentOperationCount == 3)
        #expect(later.seq == 140)
        #expect(try reader.cursorAtStart().builder.snapshot().maxConcurrentOperationCount == 3)
    }

    @Test func aQueueEventBeforeTheFirstKeyframeLeavesTheStartUnknown() throws {
        let path = RecordingTests.temporaryPath("limit")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeLimitedToThree(path, queueEvent: true)
        #expect(try RecordingReader(path: path).initialSettings == nil)
    }
}
