import Foundation
import OpsMonitor

/// Writes a recording (docs/RECORDINGS.md): the header line, then every event the monitor saw as
/// the JSON Lines `--headless` writes with a `seq` added, and every so often a keyframe (a whole
/// snapshot) so a reader can seek without replaying from the start.
///
/// Append-only: each batch is one `write` of whole lines to a file opened with `O_APPEND`, so a
/// crash leaves at most a torn last line, which readers skip with a warning. Used from one thread
/// at a time (not `Sendable`). Works for any source of events and snapshots: a local run's
/// `QueueMonitor.drainEventsAndSnapshot()`, or a remote stream.
public final class RecordingWriter {
    /// How often a keyframe is written: after `interval` of recording time or `events` events,
    /// whichever comes first; and how many finished operations one keeps.
    public struct KeyframePolicy: Sendable {
        public var interval: Duration
        public var events: Int
        /// A keyframe keeps every unfinished operation and the newest this many finished ones
        /// (the rest count as evicted), so seeking loads a small picture. Replay keeps the same
        /// bound (`RecordingReader.limits`).
        public var finishedOperations: Int

        public init(
            interval: Duration = .seconds(10), events: Int = 5_000,
            finishedOperations: Int = RecordingReader.limits.finishedOperations
        ) {
            self.interval = interval
            self.events = max(1, events)
            self.finishedOperations = max(0, finishedOperations)
        }
    }

    public let path: String
    public let policy: KeyframePolicy
    private var fd: Int32
    private var encoder = JSONLinesEncoder()
    /// The `seq` of the last event line written (0 before any).
    public private(set) var seq: UInt64 = 0
    private var lastKeyframe: Duration = .zero
    private var eventsSinceKeyframe = 0
    private var lastKeyframeLines = 0

    /// Creates `path` (with `replacing`, an existing file is truncated; without it, refused with
    /// `RecordingError.alreadyExists`) and writes `header`. The file gets mode 0600 whatever the
    /// umask, as a replaced one does: a recording holds what the publisher's 0600 socket
    /// protects. Only a regular file (or a new one) is written: a pipe or a device is refused at
    /// once, never waited on.
    public init(
        path: String, header: RecordingHeader, policy: KeyframePolicy = .init(), replacing: Bool = true
    ) throws(RecordingError) {
        self.path = path
        self.policy = policy
        if let error = RecordingError.notRegularFile(path) { throw error }
        let existing = replacing ? O_TRUNC : O_EXCL
        fd = open(path, O_WRONLY | O_CREAT | existing | O_APPEND | O_CLOEXEC | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            throw errno == EEXIST ? .alreadyExists(path) : .cannotCreate(path, code: errno)
        }
        guard fchmod(fd, 0o600) == 0 else {
            let code = errno
            _ = Foundation.close(fd)
            fd = -1
            throw .cannotCreate(path, code: code)
        }
        try write(header.line)
    }

    deinit { close() }

    /// Whether the next batch should carry a keyframe (so the caller takes a snapshot only then).
    /// Never before as many events as the last keyframe had lines, so keyframes stay at most
    /// about half of the file however many operations the picture keeps.
    public func wantsKeyframe(at time: Duration) -> Bool {
        eventsSinceKeyframe > 0 && eventsSinceKeyframe >= lastKeyframeLines
            && (time - lastKeyframe >= policy.interval || eventsSinceKeyframe >= policy.events)
    }

    /// Appends `events` (numbered from `seq` + 1) and, if given, a keyframe of `snapshot`, which
    /// must be the picture right after the last of `events`.
    public func append(_ events: [MonitorEvent], keyframe snapshot: QueueSnapshot? = nil) throws(RecordingError) {
        var bytes: [UInt8] = []
        var line: [UInt8] = []
        for event in events {
            line.removeAll(keepingCapacity: true)
            encoder.encode(event, into: &line)
            // One event may give 0 lines (throttled progress) or 2 (held progress, then finish).
            for part in line.split(separator: UInt8(ascii: "\n")) where part.last == UInt8(ascii: "}") {
                seq += 1
                eventsSinceKeyframe += 1
                bytes += part.dropLast()
                JSONBytes.appendSeq(seq, to: &bytes)
            }
        }
        if let snapshot {
            let snapshot = Self.trimmed(snapshot, keepingFinished: policy.finishedOperations)
            KeyframeEncoder.encode(snapshot, seq: seq, into: &bytes)
            lastKeyframe = snapshot.time
            lastKeyframeLines = snapshot.operations.count + snapshot.sharedLog.count + 2
            eventsSinceKeyframe = 0
        }
        try write(bytes)
    }

    /// `snapshot` with only the newest `limit` finished operations (older ones counted as evicted)
    /// and the newest log entries replay keeps.
    static func trimmed(_ snapshot: QueueSnapshot, keepingFinished limit: Int) -> QueueSnapshot {
        var snapshot = snapshot
        let logLimit = RecordingReader.limits.logEntries
        if snapshot.sharedLog.count > logLimit { snapshot.sharedLog.removeFirst(snapshot.sharedLog.count - logLimit) }
        var finished = 0
        for op in snapshot.operations where op.lifecycle == .finished { finished += 1 }
        guard finished > limit else { return snapshot }
        var drop = finished - limit
        var kept = ChunkedArray<OperationSnapshot>()
        for op in snapshot.operations {
            if drop > 0, op.lifecycle == .finished {
                drop -= 1
                continue
            }
            kept.append(op)
        }
        var trimmed = snapshot
        trimmed.evictedCount += finished - limit
        trimmed.operations = kept
        return trimmed
    }

    /// Closes the file (later appends fail).
    public func close() {
        if fd >= 0 { _ = Foundation.close(fd) }
        fd = -1
    }

    private func write(_ text: String) throws(RecordingError) {
        try write(Array(text.utf8))
    }

    private func write(_ bytes: [UInt8]) throws(RecordingError) {
        guard !bytes.isEmpty else { return }
        guard fd >= 0 else { throw RecordingError(path: path, line: 0, problem: "recording is closed") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.write(fd, base + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw RecordingError(path: path, line: 0, problem: "write failed: \(String(cString: strerror(errno)))")
            }
            written += result
        }
    }
}
