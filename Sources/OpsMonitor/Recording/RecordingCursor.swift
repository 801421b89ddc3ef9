import Foundation

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
    /// The picture so far.
    public private(set) var builder = EventSnapshotBuilder(limits: RecordingReader.limits)
    /// The recording time shown.
    public private(set) var time: Duration = .zero
    /// Lines this cursor has read from the file (what moving it cost).
    public private(set) var linesRead = 0
    /// The `seq` of the last event applied (that of the keyframe loaded, before any event; 0 at
    /// the start, or in a recording without `seq`s).
    public private(set) var seq: UInt64 = 0

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
        // From the start, the queue's settings are not in any line yet: the recording's first
        // ones (without them, a limit of 1 would show until the first keyframe).
        if mark == reader.marks.first, let settings = reader.initialSettings {
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

    /// Applies exactly one event line, the next one, and any keyframe before it (a keyframe is
    /// applied whole, never half); the recording time moves to that event's. False when no
    /// event is left (any keyframe lines left are applied).
    public mutating func step() throws(RecordingError) -> Bool {
        while true {
            try fill()
            guard let next = pending else { return false }
            try applyPending()
            if case .event(let event) = next.decoded.line {
                time = max(time, event.time)
                return true
            }
        }
    }

    /// Applies the pending line.
    private mutating func applyPending() throws(RecordingError) {
        guard let next = pending else { return }
        pending = nil
        do { try builder.apply(next.decoded.line) } catch {
            throw RecordingError(path: reader.path, line: lineNumber, problem: error.message)
        }
        if let lineSeq = next.decoded.seq { seq = lineSeq }
        if case .keyframeBegin(let header) = next.decoded.line { seq = header.seq }
    }

    private mutating func fill() throws(RecordingError) {
        while pending == nil, !finished {
            let line: LineReader.Line?
            do { line = try lines.next() } catch let error as LineReader.LineTooLong {
                throw RecordingError(path: reader.path, line: lineNumber + 1, problem: error.message)
            } catch {
                throw RecordingError(path: reader.path, line: lineNumber + 1, problem: "read failed: \(error)")
            }
            guard let line, line.offset < reader.endOffset else {
                finished = true
                try? handle.close()
                return
            }
            lineNumber += 1
            linesRead += 1
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            let decoded: DecodedLine
            do { decoded = try decoder.decode(bytes: line.bytes) } catch {
                throw RecordingError(path: reader.path, line: lineNumber, problem: error.message)
            }
            var lineTime: Duration?
            switch decoded.line {
            case .event(let event): lineTime = event.time
            case .keyframeBegin(let header): lineTime = header.time
            default: lineTime = nil
            }
            pending = (decoded, line.bytes, lineTime)
        }
    }
}
