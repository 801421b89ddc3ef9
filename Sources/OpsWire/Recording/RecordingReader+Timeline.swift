import OpsMonitor

extension RecordingReader {
    /// The recording's per-second history over its whole length (its last `QueueHistory`
    /// `.maximumWindow` seconds when longer): the last picture's history stitched with the
    /// histories of as few keyframes as cover the time before it (each holds the window before
    /// it, 15 minutes by default: about one keyframe line read per window of recording). A
    /// second no keyframe holds (keyframes further apart than their window) shows as quiet.
    /// Memory: 32 bytes per second of the recording, 2.8 MB at most.
    package func timeline() throws(RecordingError) -> QueueHistory {
        try timeline(endingWith: cursor(at: duration).builder.snapshot().history)
    }

    /// `timeline()` from `last`, the history of the recording's last picture (which a replay
    /// builds a frame's work at a time: `ReplayEndPicture`); reads a keyframe's first line per
    /// window of recording.
    package func timeline(endingWith last: QueueHistory) throws(RecordingError) -> QueueHistory {
        let window = Int(min(Int64(QueueHistory.maximumWindow), QueueHistory.second(of: duration) + 1))
        var pieces = [last]
        var needed = last.currentSecond.map { $0 - Int64(last.seconds(endingAt: .seconds($0)).count - 1) } ?? 0
        var before = marks.count
        let oldest = QueueHistory.second(of: duration) - Int64(window - 1)
        while needed > max(0, oldest), before > 0 {
            // The earliest keyframe that reaches the seconds held (it covers the most before
            // them), else the latest one before them.
            let reaching = marks[..<before].firstIndex { QueueHistory.second(of: $0.time) >= needed - 1 }
            let index = reaching.flatMap { $0 < before ? $0 : nil } ?? before - 1
            before = index
            guard let history = try keyframeHistory(at: marks[index]), let end = history.currentSecond else {
                continue
            }
            pieces.append(history)
            needed = min(needed, end - Int64(history.seconds(endingAt: .seconds(end)).count - 1))
        }
        return QueueHistory.stitched(pieces, window: window)
    }

    /// The history a keyframe's first line carries (nil at the start mark, or from a writer that
    /// wrote none).
    private func keyframeHistory(at mark: Mark) throws(RecordingError) -> QueueHistory? {
        var cursor = try RecordingCursor(reader: self, from: mark)
        return try cursor.nextKeyframeHeader()?.history
    }
}
