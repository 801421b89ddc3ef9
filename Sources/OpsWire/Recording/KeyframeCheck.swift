import OpsMonitor

/// What opening a recording checks of its keyframes, line by line, so that a replay never meets
/// a broken one later (whatever the mode, seek or start): every `snapshot_begin` is followed by
/// exactly the `snapshot_op` and `snapshot_log` lines its header counts, in order, then a
/// `snapshot_end` with its `seq`, with no event or other keyframe in between; and the times
/// agree with the keyframes (a keyframe is the picture at a moment after every event it
/// includes, so no event's `t` is later than the next keyframe's, and keyframes never go back).
struct KeyframeCheck {
    /// An open keyframe: its header, where it starts, and the lines read so far.
    struct Open {
        var header: KeyframeHeader
        var line: Int
        var offset: UInt64
        var operations = 0
        var logEntries = 0
        var lastOperationID: Int?
    }

    /// A broken keyframe or time: the line to name and what is wrong.
    struct Problem: Error {
        var line: Int
        var text: String
        init(_ line: Int, _ text: String) {
            self.line = line
            self.text = text
        }
    }

    /// How far an event's time may pass the next keyframe's: event lines keep milliseconds,
    /// keyframes nanoseconds, so a rounded time may lie up to half a millisecond beyond.
    static let timeTolerance: Duration = .milliseconds(1)

    /// The keyframe being read, if any.
    private(set) var open: Open?
    /// The latest event time since the last keyframe began, and its line.
    private var latestEvent: (time: Duration, line: Int)?
    /// The time of the last keyframe.
    private var lastKeyframeTime: Duration?

    /// Checks one line (its number, where it starts); throws the problem with it.
    mutating func check(_ line: EventLine, number: Int, offset: UInt64) throws(Problem) {
        switch line {
        case .event(let event):
            guard open == nil else { throw .init(number, "event inside a snapshot") }
            if latestEvent.map({ event.time > $0.time }) ?? true { latestEvent = (event.time, number) }
        case .keyframeBegin(let header):
            try begin(header, number: number, offset: offset)
        case .keyframeOperation(let operation):
            guard var current = open else { throw .init(number, "snapshot_op outside a snapshot") }
            if let last = current.lastOperationID, last >= operation.id {
                throw .init(number, "snapshot_op #\(operation.id) out of order")
            }
            current.operations += 1
            current.lastOperationID = operation.id
            guard current.operations <= current.header.operationCount else {
                throw .init(
                    number, "snapshot has more operations than its header says (\(current.header.operationCount))")
            }
            open = current
        case .keyframeLog:
            guard var current = open else { throw .init(number, "snapshot_log outside a snapshot") }
            current.logEntries += 1
            guard current.logEntries <= current.header.logCount else {
                throw .init(number, "snapshot has more log entries than its header says (\(current.header.logCount))")
            }
            open = current
        case .keyframeEnd(let seq):
            try end(seq: seq, number: number)
        case .summary, .other:
            break  // read past, as a replay does
        }
    }

    /// A keyframe begins on line `number`: none may be open, the events since the last one may
    /// not be later than it, and it may not be earlier than the last one.
    private mutating func begin(_ header: KeyframeHeader, number: Int, offset: UInt64) throws(Problem) {
        if let open {
            throw .init(number, "snapshot_begin inside the snapshot that began on line \(open.line)")
        }
        if let latestEvent, latestEvent.time > header.time + Self.timeTolerance {
            throw .init(
                latestEvent.line,
                "t \(Self.text(latestEvent.time)) is later than the next keyframe's "
                    + "(\(Self.text(header.time)), line \(number))")
        }
        if let lastKeyframeTime, header.time + Self.timeTolerance < lastKeyframeTime {
            throw .init(
                number,
                "keyframe t \(Self.text(header.time)) is earlier than the keyframe before it "
                    + "(\(Self.text(lastKeyframeTime)))")
        }
        lastKeyframeTime = header.time
        latestEvent = nil
        open = Open(header: header, line: number, offset: offset)
    }

    /// The open keyframe ends on line `number`: with its header's seq, operation and log counts.
    private mutating func end(seq: UInt64, number: Int) throws(Problem) {
        guard let current = open else { throw .init(number, "snapshot_end without snapshot_begin") }
        let header = current.header
        guard seq == header.seq else {
            throw .init(number, "snapshot_end seq \(seq) does not match snapshot_begin seq \(header.seq)")
        }
        guard current.operations == header.operationCount else {
            throw .init(
                number, "snapshot has \(current.operations) operations, header says \(header.operationCount)")
        }
        guard current.logEntries == header.logCount else {
            throw .init(number, "snapshot has \(current.logEntries) log entries, header says \(header.logCount)")
        }
        open = nil
    }

    /// A time in a message: seconds to the millisecond, as event lines write it.
    private static func text(_ time: Duration) -> String {
        var bytes: [UInt8] = []
        JSONBytes.appendTime(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
