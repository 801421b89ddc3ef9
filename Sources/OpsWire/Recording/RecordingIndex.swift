/// What checking a recording has found so far: where a replay can start (the marks), where it
/// ends, what is wrong but replayable, and how far the check got. Whole once the check has read
/// every line (`isComplete`); before, the part checked so far, which a cursor never reads past.
struct RecordingIndex: Sendable {
    /// The start (after the header) and every complete keyframe checked, in time order.
    var marks: [RecordingReader.Mark]
    /// The latest `t` of the events and complete keyframes checked.
    var duration: Duration
    /// Event lines checked.
    var eventCount: Int
    /// Warnings found so far, in file order.
    var warnings: [String]
    /// The queue's settings when the recording starts (known once its first keyframe is read).
    var initialSettings: RecordingReader.Settings?
    /// Where the checked part ends, never inside a keyframe: a cursor reads no further.
    var endOffset: UInt64
    /// Lines read by the check so far (what opening cost before the first frame, in tests).
    var linesChecked: Int
    /// Whether every line has been checked.
    var isComplete: Bool
    /// What the check found wrong after the first frame (the recording is not replayable past
    /// the line it names); nil while nothing is.
    var problem: RecordingError?
}
