import OpsMonitor
import OpsWire

/// The recording's last picture, which `g` (an operation's last change) and `h` (the timeline)
/// read, built a frame's work at a time as a seek is: from the last keyframe, which for 200,000
/// queued operations is as many lines.
struct ReplayEndPicture {
    private var cursor: RecordingCursor
    /// Where the recording ended when the picture was asked for.
    private let end: Duration
    /// Whether the recording's check was over then: the picture is that of its very end.
    let isOfWholeRecording: Bool

    init(reader: RecordingReader) throws(RecordingError) {
        isOfWholeRecording = reader.isChecked
        end = reader.duration
        cursor = try reader.cursor(from: reader.mark(before: end))
    }

    /// Reads on towards the end until `deadline` (`RecordingCursor.advance(to:until:)`); the
    /// picture once it is whole, else nil.
    mutating func build(until deadline: ContinuousClock.Instant) throws(RecordingError) -> QueueSnapshot? {
        guard try cursor.advance(to: end, until: deadline), cursor.isWhole else { return nil }
        return cursor.builder.snapshot()
    }
}
