import Foundation
import OpsMonitor

/// Opens a recording, checks every line once (keyframes whole, times agreeing with them:
/// `KeyframeCheck`), and indexes its keyframes by time and byte offset,
/// so `cursor(at:)` starts from the nearest keyframe instead of the beginning. Memory: one line
/// and one index entry per keyframe, whatever the recording's length.
public final class RecordingReader: Sendable {
    /// Where a replay can start: a keyframe (or the start), its time, byte offset and line
    /// number, and how many lines the keyframe holds between its first and last (0 at the start).
    public struct Mark: Sendable, Equatable {
        public var time: Duration
        public var offset: UInt64
        public var line: Int
        public var lines = 0
    }

    /// A queue's settings: paused or not, and its concurrency limit.
    public struct Settings: Sendable, Equatable {
        public var isSuspended: Bool
        public var maxConcurrentOperationCount: Int
    }

    /// The store limits replay uses: the bound keyframes keep (`RecordingWriter.KeyframePolicy`),
    /// so a picture reached by seeking equals one reached by playing.
    public static let limits = MonitorStore.Limits(finishedOperations: 500, logEntries: 200)
    /// The longest line a recording may have, in bytes (1 MiB; a keyframe's lines are short).
    public static let maximumLineLength = 1 << 20
    /// How many gaps in `seq` get a warning line each (then one line counts them all).
    static let gapsNamed = 3
    /// Bytes read between two calls of `init`'s `progress`.
    public static let progressInterval: UInt64 = 4 << 20

    public let path: String
    public let header: RecordingHeader
    /// The start (after the header) and every keyframe, in time order.
    public let marks: [Mark]
    /// Where the recording ends: the latest `t` of its events and complete keyframes (a
    /// recording's last keyframe is the picture when its run or viewer stopped, which may come
    /// well after the last event). The header's length, End, `--start-at`'s limit and the
    /// headless summary's `duration` all use it.
    public let duration: Duration
    /// Where the recording's own picture begins: for an attach recording (`source` `attach`),
    /// its first keyframe, the join (the events before it are the app's picture then, rebuilt
    /// at the times the app gave them); zero for the others. A replay starts there, and Home
    /// jumps there.
    package var joinTime: Duration {
        guard header.source == "attach", marks.count > 1 else { return .zero }
        return marks[1].time
    }
    /// Event lines (not counting keyframe lines).
    public let eventCount: Int
    /// The queue's settings when the recording starts: those of its first keyframe, when no
    /// `queue` event comes before it (a recording starts with one; older ones may not).
    public let initialSettings: Settings?
    /// Set when the last line was cut short (a crash while writing); it is ignored.
    package var warning: String? { warnings.first { $0.contains("incomplete") } }
    /// What is wrong but replayable, in file order, each naming the file and line: event lines
    /// missing (a gap in `seq`: "FILE:LINE: seq 99 after 97: 1 event missing"), a torn last
    /// line, a last keyframe cut short.
    package let warnings: [String]
    /// Where the last complete line ends: replay never reads past it.
    let endOffset: UInt64

    /// Reads and checks `path`; throws naming the line and the problem. `progress` is told the
    /// bytes read so far and the file's size, every `progressInterval` bytes or so (a recording
    /// of a million operations takes seconds to check).
    public init(path: String, progress: ((_ read: UInt64, _ size: UInt64) -> Void)? = nil) throws(RecordingError) {
        self.path = path
        let handle = try RecordingFile.open(path)
        defer { try? handle.close() }
        var status = stat()
        let size = fstat(handle.fileDescriptor, &status) == 0 ? UInt64(max(0, status.st_size)) : 0
        var nextProgress: UInt64 = 0
        let decoder = JSONLinesDecoder(maximumLineLength: Self.maximumLineLength)
        var scan = RecordingScan(path: path)
        do {
            var reader = try LineReader(handle: handle, offset: 0, maximumLength: Self.maximumLineLength)
            while let line = try reader.next() {
                if let progress, line.offset >= nextProgress {
                    progress(line.offset, size)
                    nextProgress = line.offset + Self.progressInterval
                }
                guard try scan.read(line, with: decoder) else { break }
            }
        } catch let error as RecordingError {
            throw error
        } catch let error as LineReader.LineTooLong {
            throw scan.fail(scan.number + 1, error.message)
        } catch {
            throw scan.fail(scan.number, "read failed: \(error)")
        }
        header = try scan.finish()
        marks = scan.marks
        duration = scan.duration
        eventCount = scan.events
        warnings = scan.warnings
        initialSettings = scan.initialSettings
        endOffset = scan.endOffset
    }

    /// The latest mark at or before `time`.
    public func mark(before time: Duration) -> Mark {
        var low = 0
        var high = marks.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if marks[mid].time <= time { low = mid } else { high = mid - 1 }
        }
        return marks[low]
    }

    /// A cursor before the first line after the header: nothing applied yet, so advancing
    /// (collecting) from it yields every event, those at time 0 too.
    public func cursorAtStart() throws(RecordingError) -> RecordingCursor {
        guard let start = marks.first else {
            throw RecordingError(path: path, line: 0, problem: "empty recording (no header line)")
        }
        return try RecordingCursor(reader: self, from: start)
    }

    /// A cursor showing the recording at `time`: the nearest keyframe loaded, then the events up
    /// to `time` applied.
    public func cursor(at time: Duration) throws(RecordingError) -> RecordingCursor {
        var cursor = try RecordingCursor(reader: self, from: mark(before: time))
        try cursor.advance(to: time)
        return cursor
    }
}
