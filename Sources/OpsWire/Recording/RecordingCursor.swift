import Foundation
import OpsMonitor

/// A position in a recording and the picture there: applies lines forward from a keyframe, one
/// line of look-ahead, so playing on is cheap and memory does not grow with the recording.
public struct RecordingCursor {
    public let reader: RecordingReader
    private var lines: LineReader
    private let handle: FileHandle
    private var lineNumber: Int
    private let decoder = JSONLinesDecoder(maximumLineLength: RecordingReader.maximumLineLength)
    /// The next line not applied yet (its time, when it is an event or a keyframe).
    private var pending: (decoded: DecodedLine, text: [UInt8], time: Duration?)?
    private var finished = false
    /// A line read past the part of the recording checked so far (`RecordingReader.readableEnd`),
    /// kept until the check has got past it.
    private var held: LineReader.Line?
    /// Where the checked part ended when last asked, and whether that was final.
    private var readable: (offset: UInt64, isFinal: Bool) = (0, false)
    /// The picture so far.
    public private(set) var builder = EventSnapshotBuilder(limits: RecordingReader.limits)
    /// The recording time shown.
    public private(set) var time: Duration = .zero
    /// Lines this cursor has read from the file (what moving it cost).
    public private(set) var linesRead = 0
    /// The number of the last line read (1 is the header).
    public var line: Int { lineNumber }
    /// The `seq` of the last event applied (that of the keyframe loaded, before any event; 0 at
    /// the start, or in a recording without `seq`s).
    public private(set) var seq: UInt64 = 0
    /// The event the last `step()` applied.
    package private(set) var lastStepped: MonitorEvent?
    /// Whether the cursor starts at a keyframe (not at the recording's start): its picture is
    /// whole once that keyframe is applied.
    private let startsAtKeyframe: Bool
    /// Lines applied so far.
    private var linesApplied = 0
    /// Whether the picture is a whole one: not half a keyframe, nor (from a keyframe) one before
    /// its keyframe was applied. A replay shows no other.
    package var isWhole: Bool { !builder.isReadingKeyframe && (!startsAtKeyframe || linesApplied > 0) }
    /// Keyframes passed over without loading them (see `skippedKeyframeLines`).
    public private(set) var keyframesSkipped = 0
    /// Lines of a keyframe being passed over still to read past.
    private var linesToSkip = 0

    /// A keyframe of at least this many lines that the cursor plays into, holding the picture it
    /// holds already (its `seq` is that of the last event applied), is passed over, its lines
    /// read but not decoded: loading a keyframe of 165,000 queued operations takes 0.7 s, a
    /// visible stall in the middle of playing. Smaller ones are loaded, which completes the
    /// picture of a recording whose events lack what keyframes carry (retry errors and late
    /// dependency links, in files written before events carried them).
    public static let skippedKeyframeLines = 2_000

    init(reader: RecordingReader, from mark: RecordingReader.Mark) throws(RecordingError) {
        self.reader = reader
        let handle = try RecordingFile.open(reader.path)
        self.handle = handle
        do {
            lines = try LineReader(
                handle: handle, offset: mark.offset, maximumLength: RecordingReader.maximumLineLength)
        } catch {
            throw RecordingError(path: reader.path, line: mark.line, problem: "read failed: \(error)")
        }
        lineNumber = mark.line - 1
        time = mark.time
        startsAtKeyframe = mark != reader.marks.first
        // From the start, the queue's settings are not in any line yet: the recording's first
        // ones (without them, a limit of 1 would show until the first keyframe).
        if !startsAtKeyframe, let settings = reader.initialSettings {
            builder = EventSnapshotBuilder(
                limits: RecordingReader.limits, isSuspended: settings.isSuspended,
                maxConcurrentOperationCount: settings.maxConcurrentOperationCount)
        }
    }

    /// Whether every line has been applied.
    public var isAtEnd: Bool { finished && pending == nil }

    /// The time of the next event, if any.
    public mutating func nextEventTime() throws(RecordingError) -> Duration? {
        try fill()
        return pending?.time
    }

    /// Applies every line up to and including `time`; returns the event lines applied (their
    /// text, for a headless replay).
    @discardableResult
    public mutating func advance(to time: Duration, collecting: Bool = false) throws(RecordingError) -> [[UInt8]] {
        var applied: [[UInt8]] = []
        while true {
            try fill()
            guard let next = pending else { break }
            if let lineTime = next.time, lineTime > time, !builder.isReadingKeyframe { break }
            try applyPending()
            if collecting, case .event = next.decoded.line { applied.append(next.text) }
        }
        self.time = max(self.time, time)
        builder.advance(to: min(self.time, max(builder.time, time)))
        return applied
    }

    /// Applies the lines up to and including `time` as `advance(to:)` does, but stops once
    /// `deadline` has passed (looking at the clock every `linesBetweenClockReads` lines, inside a
    /// keyframe too: `isWhole` is then false until a later call finishes it): the recording time
    /// then moves only to the last line applied, and the rest waits for the next call. True when
    /// every line up to `time` was applied. How a replay bounds a frame's work: an instant with
    /// 150,000 events took 0.7 s in one, loading a keyframe of 165,000 operations 0.7 s.
    package mutating func advance(to time: Duration, until deadline: ContinuousClock.Instant) throws(RecordingError)
        -> Bool
    {
        var applied = 0
        while true {
            // A keyframe passed over is read past `linesSkippedBetweenClockReads` lines at a time
            // (200,000 lines took 0.3 s).
            try fill(stoppingToSkip: true)
            if linesToSkip > 0 {
                try skip(min(linesToSkip, Self.linesSkippedBetweenClockReads))
                if linesToSkip > 0, ContinuousClock.now >= deadline { return false }
                continue
            }
            guard let next = pending else { break }
            if let lineTime = next.time, lineTime > time, !builder.isReadingKeyframe { break }
            if applied >= Self.linesBetweenClockReads {
                applied = 0
                if ContinuousClock.now >= deadline { return false }
            }
            try applyPending()
            applied += 1
            if let lineTime = next.time {
                self.time = max(self.time, min(lineTime, time))
                builder.advance(to: self.time)
            }
        }
        self.time = max(self.time, time)
        builder.advance(to: min(self.time, max(builder.time, time)))
        return true
    }

    /// Lines `advance(to:until:)` applies between two looks at the clock.
    static let linesBetweenClockReads = 256
    /// Lines of a keyframe passed over that `advance(to:until:)` reads past between two looks at
    /// the clock (reading past a line, without decoding it, costs a few microseconds).
    static let linesSkippedBetweenClockReads = 2_048

    /// Applies exactly one event line, the next one, and any keyframe before it (a keyframe is
    /// applied whole, never half); the recording time moves to that event's. False when no
    /// event is left (any keyframe lines left are applied).
    public mutating func step() throws(RecordingError) -> Bool {
        try step(until: .now + .seconds(Int64(Int32.max))) == .stepped
    }

    /// What `step(until:)` did.
    package enum Step: Equatable {
        /// Applied the next event line (and any keyframe before it).
        case stepped
        /// No event is left.
        case atEnd
        /// Stopped at the deadline inside the keyframe before the next event: call again.
        case interrupted
    }

    /// `step()`, stopping once `deadline` has passed inside a keyframe before the event (looking at
    /// the clock every `linesBetweenClockReads` lines): a keyframe of 165,000 operations takes
    /// 0.7 s to apply.
    package mutating func step(until deadline: ContinuousClock.Instant) throws(RecordingError) -> Step {
        var applied = 0
        while true {
            try fill()
            guard let next = pending else { return .atEnd }
            if applied >= Self.linesBetweenClockReads {
                applied = 0
                if ContinuousClock.now >= deadline { return .interrupted }
            }
            try applyPending()
            applied += 1
            if case .event(let event) = next.decoded.line {
                lastStepped = event
                time = max(time, event.time)
                return .stepped
            }
        }
    }

    /// Applies the pending line.
    private mutating func applyPending() throws(RecordingError) {
        guard let next = pending else { return }
        pending = nil
        linesApplied += 1
        do { try builder.apply(next.decoded.line) } catch {
            throw RecordingError(path: reader.path, line: lineNumber, problem: error.message)
        }
        if let lineSeq = next.decoded.seq { seq = lineSeq }
        if case .keyframeBegin(let header) = next.decoded.line { seq = header.seq }
    }

    /// Reads the next line to apply into `pending`, passing over large keyframes the picture
    /// holds already; `stoppingToSkip`, it stops at such a keyframe's first line, leaving its
    /// lines to the caller (`linesToSkip`).
    private mutating func fill(stoppingToSkip: Bool = false) throws(RecordingError) {
        if linesToSkip > 0 {
            guard !stoppingToSkip else { return }
            try skip(linesToSkip)
        }
        while pending == nil, let line = try nextLine() {
            let decoded: DecodedLine
            do { decoded = try decoder.decode(bytes: line.bytes) } catch {
                throw RecordingError(path: reader.path, line: lineNumber, problem: error.message)
            }
            var lineTime: Duration?
            switch decoded.line {
            case .event(let event): lineTime = event.time
            case .keyframeBegin(let header):
                let lines = header.lineCount
                if seq != 0, header.seq == seq, lines >= Self.skippedKeyframeLines {
                    // The picture is this keyframe's already; opening the recording checked that
                    // exactly `lines` lines and its `snapshot_end` follow.
                    linesToSkip = lines < Int.max ? lines + 1 : lines
                    keyframesSkipped += 1
                    if stoppingToSkip { return }
                    try skip(linesToSkip)
                    continue
                }
                lineTime = header.time
            default: lineTime = nil
            }
            pending = (decoded, line.bytes, lineTime)
        }
    }

    /// The next line's keyframe header, read without applying it; nil when it is not a
    /// keyframe's first line.
    mutating func nextKeyframeHeader() throws(RecordingError) -> KeyframeHeader? {
        guard let line = try nextLine() else { return nil }
        let decoded: DecodedLine
        do { decoded = try decoder.decode(bytes: line.bytes) } catch {
            throw RecordingError(path: reader.path, line: lineNumber, problem: error.message)
        }
        guard case .keyframeBegin(let header) = decoded.line else { return nil }
        return header
    }

    /// Reads past `count` of the lines left to skip (`linesToSkip`), not counting blank ones.
    private mutating func skip(_ count: Int) throws(RecordingError) {
        var left = count
        while left > 0, try nextLine() != nil { left -= 1 }
        // At the end of the file (or of the part checked so far) nothing more is skipped.
        linesToSkip = left > 0 ? 0 : linesToSkip - count
    }

    /// The next line that is not blank, before the recording's end; nil at the end, or at the
    /// end of the part checked so far (`RecordingReader.readableEnd`; the line is kept for later).
    private mutating func nextLine() throws(RecordingError) -> LineReader.Line? {
        while !finished {
            let line: LineReader.Line?
            if let held {
                line = held
                self.held = nil
            } else {
                do { line = try lines.next() } catch let error as LineReader.LineTooLong {
                    throw RecordingError(path: reader.path, line: lineNumber + 1, problem: error.message)
                } catch {
                    throw RecordingError(path: reader.path, line: lineNumber + 1, problem: "read failed: \(error)")
                }
            }
            if let line, line.offset >= readable.offset, !readable.isFinal { readable = reader.readableEnd }
            guard let line, line.offset < readable.offset else {
                if let line, !readable.isFinal {
                    held = line
                    return nil
                }
                finished = true
                try? handle.close()
                return nil
            }
            lineNumber += 1
            linesRead += 1
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            return line
        }
        return nil
    }
}
