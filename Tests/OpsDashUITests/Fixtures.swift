import OpsDashUI
import OpsMonitor

/// Builds `QueueSnapshot` values for tests: fixed times, counts and byte totals computed from
/// the operations, no clock.
enum Fixtures {
    static let kb: Int64 = 1000
    static let mb: Int64 = 1000 * 1000

    /// A snapshot of `operations` (sorted by id) with counts and totals derived from them.
    static func snapshot(
        _ operations: [OperationSnapshot], time: Duration = .seconds(65), suspended: Bool = false,
        limit: Int = 3, evicted: Int = 0, log: [LogEntry] = [], version: UInt64 = 1
    ) -> QueueSnapshot {
        var counts = StateCounts()
        var done: Int64 = 0
        var total: Int64 = 0
        var rate = 0.0
        for operation in operations {
            switch (operation.lifecycle, operation.outcome) {
            case (.waiting, _): counts.waiting += 1
            case (.ready, _): counts.ready += 1
            case (.executing, _):
                counts.executing += 1
                rate += operation.unitsPerSecond
            case (.finished, .failed?): counts.failed += 1
            case (.finished, .cancelled?): counts.cancelled += 1
            case (.finished, _): counts.succeeded += 1
            }
            done += operation.completedUnits
            total += operation.totalUnits
        }
        return QueueSnapshot(
            time: time, isSuspended: suspended, maxConcurrentOperationCount: limit, counts: counts,
            completedBytes: done, totalBytes: total, bytesPerSecond: rate,
            operations: ChunkedArray(operations.sorted { $0.id < $1.id }), evictedCount: evicted,
            log: log, version: version)
    }

    /// Simple operations 1…count, all ready, named `op-<id>`.
    static func plain(_ count: Int, version: UInt64 = 1) -> QueueSnapshot {
        let operations = (0..<count).map { OperationSnapshot(id: $0 + 1, name: "op-\($0 + 1)") }
        return snapshot(operations, version: version)
    }

    /// A queue part-way through a video pipeline: downloads running, transcodes waiting,
    /// one failure, one cancellation, one op ready behind busy slots.
    static func midRun(suspended: Bool = false, version: UInt64 = 1) -> QueueSnapshot {
        let operations: [OperationSnapshot] = [
            OperationSnapshot(
                id: 1, name: "fetch-manifest.json", kind: .download, lifecycle: .finished,
                outcome: .succeeded, completedUnits: 12 * kb, totalUnits: 12 * kb,
                addedAt: .zero, startedAt: .milliseconds(500), finishedAt: .milliseconds(1200),
                history: [
                    StateChange(time: .zero, lifecycle: .ready),
                    StateChange(time: .milliseconds(500), lifecycle: .executing),
                    StateChange(
                        time: .milliseconds(1200), lifecycle: .finished, outcome: .succeeded),
                ]),
            OperationSnapshot(
                id: 2, name: "video-part-1.mp4", kind: .download, lifecycle: .executing,
                completedUnits: 54 * mb, totalUnits: 120 * mb, unitsPerSecond: 2.5 * Double(mb),
                retries: 1, dependencies: [1], addedAt: .zero, startedAt: .seconds(2),
                history: [
                    StateChange(time: .zero, lifecycle: .waiting),
                    StateChange(time: .milliseconds(1200), lifecycle: .ready),
                    StateChange(time: .seconds(2), lifecycle: .executing),
                ],
                retryLog: ["attempt 1 failed at 12%: connection reset"]),
            OperationSnapshot(
                id: 3, name: "video-part-2.mp4", kind: .download, lifecycle: .executing,
                completedUnits: 40 * mb, totalUnits: 128 * mb, unitsPerSecond: 1.5 * Double(mb),
                dependencies: [1], addedAt: .zero, startedAt: .seconds(3)),
            OperationSnapshot(
                id: 4, name: "thumbnails.zip", kind: .upload, lifecycle: .executing,
                completedUnits: 700 * kb, totalUnits: 800 * kb, unitsPerSecond: 300 * Double(kb),
                addedAt: .zero, startedAt: .seconds(60)),
            OperationSnapshot(
                id: 5, name: "transcode-part-1", kind: .process, lifecycle: .waiting,
                dependencies: [2], addedAt: .zero),
            OperationSnapshot(
                id: 6, name: "transcode-part-2", kind: .process, lifecycle: .waiting,
                dependencies: [3], addedAt: .zero),
            OperationSnapshot(
                id: 7, name: "merge-video", kind: .process, lifecycle: .waiting,
                dependencies: [5, 6], addedAt: .zero),
            OperationSnapshot(
                id: 8, name: "upload-final.mp4", kind: .upload, lifecycle: .waiting,
                totalUnits: 240 * mb, dependencies: [7], addedAt: .zero),
            OperationSnapshot(
                id: 9, name: "subtitles.srt", kind: .download, lifecycle: .ready,
                totalUnits: 40 * kb, addedAt: .zero),
            OperationSnapshot(
                id: 10, name: "cover-art.png", kind: .download, lifecycle: .finished,
                outcome: .failed, message: "HTTP 503", completedUnits: 300 * kb,
                totalUnits: 2 * mb, retries: 2, addedAt: .zero, startedAt: .seconds(5),
                finishedAt: .seconds(31)),
            OperationSnapshot(
                id: 11, name: "cleanup-temp", kind: .other, lifecycle: .finished,
                outcome: .cancelled, message: "cancelled by operator", addedAt: .zero,
                finishedAt: .seconds(40)),
            OperationSnapshot(
                id: 12, name: "notify-webhook", kind: .other, lifecycle: .waiting,
                dependencies: [8, 4], addedAt: .zero),
        ]
        let log: [LogEntry] = [
            LogEntry(time: .milliseconds(1200), kind: .state, operationID: 1, text: "succeeded"),
            LogEntry(time: .seconds(2), kind: .state, operationID: 2, text: "started"),
            LogEntry(time: .seconds(3), kind: .state, operationID: 3, text: "started"),
            LogEntry(
                time: .milliseconds(14_300), kind: .retry, operationID: 2,
                text: "attempt 1 failed at 12%: connection reset"),
            LogEntry(time: .seconds(31), kind: .state, operationID: 10, text: "failed: HTTP 503"),
            LogEntry(
                time: .seconds(40), kind: .action, operationID: 11, text: "cancelled by operator"),
            LogEntry(time: .seconds(45), kind: .queue, text: "concurrency limit 2 -> 3"),
            LogEntry(time: .seconds(60), kind: .state, operationID: 4, text: "started"),
        ]
        return snapshot(operations, suspended: suspended, limit: 3, log: log, version: version)
    }

    /// Every operation finished, the last at 42 s: three succeeded, one failed, one cancelled.
    static func finishedRun() -> QueueSnapshot {
        let outcomes: [(Outcome, String?)] = [
            (.succeeded, nil), (.succeeded, nil), (.failed, "HTTP 503"), (.succeeded, nil),
            (.cancelled, "cancelled by operator"),
        ]
        let operations = outcomes.enumerated().map { index, outcome in
            OperationSnapshot(
                id: index + 1, name: "file-\(index + 1).bin", kind: .download, lifecycle: .finished,
                outcome: outcome.0, message: outcome.1,
                completedUnits: outcome.0 == .succeeded ? 21 * mb : 2 * mb, totalUnits: 21 * mb,
                addedAt: .zero, startedAt: .seconds(index * 8),
                finishedAt: .seconds(index * 8 + 2 + index / 4 * 8))
        }
        var snapshot = snapshot(operations, time: .seconds(42), limit: 2)
        snapshot.drainedAt = .seconds(42)
        return snapshot
    }

    /// A dashboard of `width × height` that has received `snapshot`.
    static func state(
        _ snapshot: QueueSnapshot, width: Int = 120, height: Int = 40, glyphs: GlyphSet = .unicode
    ) -> DashboardState {
        var state = DashboardState(width: width, height: height, glyphs: glyphs)
        _ = reduce(&state, .tick(snapshot))
        return state
    }
}

extension DashboardState {
    /// Sends keys in order, returning every command they produced.
    @discardableResult
    mutating func press(_ keys: Key...) -> [Command] {
        var commands: [Command] = []
        for key in keys { commands += reduce(&self, .key(key)) }
        return commands
    }

    /// Types each character of `text` as a key.
    @discardableResult
    mutating func type(_ text: String) -> [Command] {
        var commands: [Command] = []
        for character in text { commands += reduce(&self, .key(.character(character))) }
        return commands
    }
}
