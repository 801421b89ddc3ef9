import Foundation
import OpsKit
import OpsMonitor

/// Opens a recording, checks every line once (keyframes whole, times agreeing with them:
/// `KeyframeCheck`), and indexes its keyframes by time and byte offset,
/// so `cursor(at:)` starts from the nearest keyframe instead of the beginning. Memory: one line
/// and one index entry per keyframe, whatever the recording's length.
///
/// Opened `.firstFrame`, only the lines up to the end of the first keyframe are checked before
/// the reader is returned (a recording opsdash wrote has one right after its header; one
/// without keyframes is checked whole); the rest is checked on a background thread, the index
/// (marks, `duration`, warnings) growing as it goes, and a cursor reads no further than the
/// check has got. A problem found there is `problem`.
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

    /// How much of the recording opening checks before it returns.
    package enum Opening {
        /// Every line (what `--headless` and `--start-at` need: the whole length, and a broken
        /// recording refused before anything is shown); `progress` as in `init(path:progress:)`.
        case whole(progress: ((_ read: UInt64, _ size: UInt64) -> Void)?)
        /// The lines up to the end of the first keyframe and at least `bytes` (a small recording
        /// is checked whole at once), the rest checked by `checkRest()`: on a background thread
        /// when `inBackground`, else when a test calls it.
        case firstFrame(inBackground: Bool, atLeast: UInt64 = RecordingReader.firstFrameBytes)
        /// The lines up to the first keyframe and up to the first line later than `time` (to
        /// the end when none is: what `--start-at` needs, the picture at `time`, or the whole
        /// length to refuse a start past the end), the rest as `firstFrame` does; `progress` as
        /// in `init(path:progress:)`.
        case past(Duration, inBackground: Bool, progress: ((_ read: UInt64, _ size: UInt64) -> Void)?)
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
    /// Bytes opening checks before the first frame at least (`Opening.firstFrame`): ~0.1 s of
    /// checking, so a recording of up to ~25,000 events is checked whole before it is shown.
    package static let firstFrameBytes: UInt64 = 4 << 20
    /// Lines the background check reads between two updates of the index.
    static let linesBetweenUpdates = 4_096

    public let path: String
    public let header: RecordingHeader
    /// The file's size in bytes when it was opened.
    package let size: UInt64
    // Locking: `index` is written by the check (the opening thread, then the background one)
    // and read by cursors and the replay; `rest` is held by whoever runs the rest of the check.
    private let index: OpsMutex<RecordingIndex>
    private let rest: OpsMutex<RecordingCheck?>

    /// The start (after the header) and every keyframe, in time order.
    public var marks: [Mark] { index.withLock { $0.marks } }
    /// Where the recording ends: the latest `t` of its events and complete keyframes (a
    /// recording's last keyframe is the picture when its run or viewer stopped, which may come
    /// well after the last event). The header's length, End, `--start-at`'s limit and the
    /// headless summary's `duration` all use it. While the check goes on, its end so far.
    public var duration: Duration { index.withLock { $0.duration } }
    /// Where the recording's own picture begins: for an attach recording (`source` `attach`),
    /// its first keyframe, the join (the events before it are the app's picture then, rebuilt
    /// at the times the app gave them); zero for the others. A replay starts there, and Home
    /// jumps there.
    package var joinTime: Duration {
        let marks = marks
        guard header.source == "attach", marks.count > 1 else { return .zero }
        return marks[1].time
    }
    /// Event lines (not counting keyframe lines).
    public var eventCount: Int { index.withLock { $0.eventCount } }
    /// The queue's settings when the recording starts: those of its first keyframe, when no
    /// `queue` event comes before it (a recording starts with one; older ones may not).
    public var initialSettings: Settings? { index.withLock { $0.initialSettings } }
    /// Set when the last line was cut short (a crash while writing); it is ignored.
    package var warning: String? { warnings.first { $0.contains("incomplete") } }
    /// What is wrong but replayable, in file order, each naming the file and line: event lines
    /// missing (a gap in `seq`: "FILE:LINE: seq 99 after 97: 1 event missing"), a torn last
    /// line, a last keyframe cut short.
    package var warnings: [String] { index.withLock { $0.warnings } }
    /// Whether every line has been checked (at once unless opened `.firstFrame`).
    package var isChecked: Bool { index.withLock { $0.isComplete } }
    /// What the check found wrong after opening (`.firstFrame`): the recording replays up to
    /// the line before it.
    package var problem: RecordingError? { index.withLock { $0.problem } }
    /// How far the check has got: lines and bytes read.
    package var checked: (lines: Int, bytes: UInt64) {
        index.withLock { ($0.linesChecked, $0.endOffset) }
    }
    /// Where the checked part ends (never inside a keyframe), and whether it is the end of all
    /// a replay reads (the check is over): a cursor reads no further.
    var readableEnd: (offset: UInt64, isFinal: Bool) {
        index.withLock { ($0.endOffset, $0.isComplete || $0.problem != nil) }
    }

    /// Reads and checks `path`; throws naming the line and the problem. `progress` is told the
    /// bytes read so far and the file's size, every `progressInterval` bytes or so (a recording
    /// of a million operations takes seconds to check).
    public convenience init(
        path: String, progress: ((_ read: UInt64, _ size: UInt64) -> Void)? = nil
    ) throws(RecordingError) {
        try self.init(path: path, opening: .whole(progress: progress))
    }

    /// Opens `path`, checking as much of it as `opening` says first; throws naming the line and
    /// the problem found there.
    package init(path: String, opening: Opening) throws(RecordingError) {
        self.path = path
        var check = try RecordingCheck(path: path)
        switch opening {
        case .whole(let progress):
            try check.read(progress: progress)
        case .firstFrame(_, let bytes):
            // Up to the end of the first keyframe: the queue's settings at the start, and an
            // attach recording's join.
            try check.read(progress: nil) { $0.marks.count > 1 && !$0.isInsideKeyframe && $0.endOffset >= bytes }
        case .past(let time, _, let progress):
            try check.read(progress: progress) { $0.marks.count > 1 && !$0.isInsideKeyframe && $0.duration > time }
        }
        guard let header = check.scan.header else {
            throw RecordingError(path: path, line: 0, problem: "empty recording (no header line)")
        }
        self.header = header
        size = check.size
        let isAtEnd = check.isAtEnd
        index = OpsMutex(check.scan.index(isComplete: isAtEnd))
        rest = OpsMutex(isAtEnd ? nil : check)
        if opening.checksRestInBackground, !isAtEnd {
            let thread = Thread { [self] in
                nameCurrentThread("opsdash.check")
                checkRest()
            }
            thread.qualityOfService = .utility
            thread.start()
        }
    }

    /// Checks the lines opening left (`.firstFrame`, `.past`), updating the index as it goes; returns
    /// at once when every line has been checked, and waits when another thread is checking them.
    package func checkRest() {
        rest.withLock { pending in
            guard var check = pending else { return }
            pending = nil
            do throws(RecordingError) {
                while !check.isAtEnd {
                    let from = check.scan.number
                    try check.read(progress: nil) {
                        $0.number - from >= Self.linesBetweenUpdates && !$0.isInsideKeyframe
                    }
                    let update = check.scan.index(isComplete: check.isAtEnd)
                    index.withLock { $0 = update }
                }
            } catch {
                // What was found before the problem (warnings, keyframes), then the problem.
                var update = check.scan.index(isComplete: false)
                update.problem = error
                index.withLock { $0 = update }
            }
        }
    }

    /// The latest mark at or before `time`.
    public func mark(before time: Duration) -> Mark {
        let marks = marks
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
        guard let start = index.withLock({ $0.marks.first }) else {
            throw RecordingError(path: path, line: 0, problem: "empty recording (no header line)")
        }
        return try RecordingCursor(reader: self, from: start)
    }

    /// A cursor at `mark` with nothing applied yet: advancing it loads the keyframe there (a
    /// replay spreads that over frames: `RecordingCursor.advance(to:until:)`).
    package func cursor(from mark: Mark) throws(RecordingError) -> RecordingCursor {
        try RecordingCursor(reader: self, from: mark)
    }

    /// A cursor showing the recording at `time`: the nearest keyframe loaded, then the events up
    /// to `time` applied.
    public func cursor(at time: Duration) throws(RecordingError) -> RecordingCursor {
        var cursor = try RecordingCursor(reader: self, from: mark(before: time))
        try cursor.advance(to: time)
        return cursor
    }
}

extension RecordingReader.Opening {
    /// Whether the lines opening leaves are checked on a background thread.
    var checksRestInBackground: Bool {
        switch self {
        case .whole: false
        case .firstFrame(let inBackground, _), .past(_, let inBackground, _): inBackground
        }
    }
}
