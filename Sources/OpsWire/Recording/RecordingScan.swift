import OpsMonitor

/// What `RecordingReader` learns reading a recording once, line by line: its header, where a
/// replay can start (the marks), where it ends, how many events it holds, the settings it
/// starts with, and what is wrong but replayable (warnings). Throws naming the line and the
/// problem.
struct RecordingScan {
    let path: String
    private(set) var header: RecordingHeader?
    private(set) var marks: [RecordingReader.Mark] = []
    private(set) var duration: Duration = .zero
    private(set) var events = 0
    private(set) var warnings: [String] = []
    private(set) var initialSettings: RecordingReader.Settings?
    /// The number of the last line read.
    private(set) var number = 0
    /// Where the last complete line ends.
    private(set) var endOffset: UInt64 = 0
    private var lastSeq: UInt64 = 0
    private var gaps = 0
    private var missingEvents: UInt64 = 0
    private var settingsChanged = false
    private var keyframes = KeyframeCheck()

    init(path: String) {
        self.path = path
    }

    func fail(_ line: Int, _ problem: String) -> RecordingError {
        RecordingError(path: path, line: line, problem: problem)
    }

    /// Reads the next line; false when reading stops there (a torn last line, ignored).
    mutating func read(_ line: LineReader.Line, with decoder: JSONLinesDecoder) throws(RecordingError) -> Bool {
        number += 1
        if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
            if line.terminated { endOffset = line.offset + UInt64(line.bytes.count) + 1 }
            return true
        }
        let decoded: DecodedLine
        do {
            decoded = try decoder.decode(bytes: line.bytes)
        } catch {
            if !line.terminated, header != nil {
                warnings.append("\(path):\(number): last line is incomplete (torn write); ignored")
                return false
            }
            throw fail(number, header == nil ? "not a recording: \(error.message)" : error.message)
        }
        guard header != nil else {
            do { header = try RecordingHeader(decoded) } catch { throw fail(number, error.message) }
            endOffset = line.offset + UInt64(line.bytes.count) + 1
            marks.append(RecordingReader.Mark(time: .zero, offset: endOffset, line: number + 1))
            return true
        }
        let completedKeyframe = keyframes.open?.header.time
        do { try keyframes.check(decoded.line, number: number, offset: line.offset) } catch {
            throw fail(error.line, error.text)
        }
        switch decoded.line {
        case .event(let event):
            try read(event, seq: decoded.seq)
        case .keyframeBegin(let keyframe):
            try read(keyframe, at: line.offset)
        case .keyframeEnd:
            // Only a complete keyframe moves the end (one cut short is ignored).
            if let time = completedKeyframe { duration = max(duration, time) }
        case .other(let event) where event == "recording":
            throw fail(number, "a second recording header")
        default:
            break
        }
        endOffset = line.offset + UInt64(line.bytes.count) + (line.terminated ? 1 : 0)
        return true
    }

    private mutating func read(_ event: MonitorEvent, seq: UInt64?) throws(RecordingError) {
        if case .queue = event { settingsChanged = true }
        if let seq {
            guard seq > lastSeq else { throw fail(number, "seq \(seq) after seq \(lastSeq): out of order") }
            if lastSeq > 0, seq > lastSeq + 1 { noteGap(missing: seq - lastSeq - 1, before: seq) }
            lastSeq = seq
        }
        // Another writer's times may step back (opsdash's never do): `seq` is the order.
        duration = max(duration, event.time)
        events += 1
    }

    private mutating func noteGap(missing: UInt64, before seq: UInt64) {
        gaps += 1
        let (sum, overflow) = missingEvents.addingReportingOverflow(missing)
        missingEvents = overflow ? .max : sum
        guard gaps <= RecordingReader.gapsNamed else { return }
        warnings.append(
            "\(path):\(number): seq \(seq) after \(lastSeq): \(missing) event\(missing == 1 ? "" : "s") missing")
    }

    private mutating func read(_ keyframe: KeyframeHeader, at offset: UInt64) throws(RecordingError) {
        guard keyframe.seq == lastSeq else {
            throw fail(number, "keyframe seq \(keyframe.seq) does not follow the last event's seq \(lastSeq)")
        }
        marks.append(RecordingReader.Mark(time: keyframe.time, offset: offset, line: number, lines: keyframe.lineCount))
        if marks.count == 2, !settingsChanged {
            initialSettings = RecordingReader.Settings(
                isSuspended: keyframe.isSuspended, maxConcurrentOperationCount: keyframe.maxConcurrentOperationCount)
        }
    }

    /// Whether the last line read was inside a keyframe (it is not complete yet).
    var isInsideKeyframe: Bool { keyframes.open != nil }

    /// What the lines read so far tell a replay: all of it once `finish()` has run (`isComplete`);
    /// before, the part up to the keyframe being read, if any (a cursor never reads half a
    /// keyframe).
    func index(isComplete: Bool) -> RecordingIndex {
        var index = RecordingIndex(
            marks: marks, duration: duration, eventCount: events, warnings: warnings,
            initialSettings: initialSettings, endOffset: endOffset, linesChecked: number, isComplete: isComplete)
        if !isComplete, let open = keyframes.open {
            if index.marks.last?.offset == open.offset { index.marks.removeLast() }
            index.endOffset = open.offset
        }
        return index
    }

    /// After the last line: the header (throws when there was none), with the gap count and
    /// a keyframe cut short at the end said in the warnings.
    mutating func finish() throws(RecordingError) -> RecordingHeader {
        guard let header else { throw fail(0, "empty recording (no header line)") }
        if gaps > RecordingReader.gapsNamed {
            warnings.insert(
                "\(path): \(gaps) gaps in seq in all, \(missingEvents) events missing", at: RecordingReader.gapsNamed)
        }
        if let open = keyframes.open {
            // Cut short at the end (a crash while writing it): replay stops before it.
            warnings.append("\(path):\(open.line): last keyframe is incomplete (the file ends inside it); ignored")
            if marks.last?.offset == open.offset { marks.removeLast() }
            endOffset = open.offset
        }
        return header
    }
}
