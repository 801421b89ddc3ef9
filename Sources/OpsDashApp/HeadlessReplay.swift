import Foundation
import OpsMonitor

/// `opsdash replay --headless`: writes a recording's event lines to stdout, paced by their times
/// (divided by `--speed`, pauses capped by `--idle-limit`). With `--start-at`, the picture at that
/// time comes first as a keyframe, so the output stands on its own.
struct HeadlessReplay {
    let reader: RecordingReader
    let command: ReplayCommand

    func execute(signals: StopSignals) throws(RecordingError) -> ExitStatus {
        signals.handOver()
        let start = min(command.startTime, reader.duration)
        // From the very start, events at time 0 are written too (a late join's first lines).
        var cursor = start > .zero ? try reader.cursor(at: start) : try reader.cursorAtStart()
        var readerGone = false
        if start > .zero {
            readerGone = !StandardStreams.write(KeyframeEncoder.lines(cursor.builder.snapshot(), seq: 0))
        }
        var playhead = start
        var wallNext = ContinuousClock.now
        while let next = try cursor.nextEventTime() {
            var gap = next - playhead
            if let limit = command.idleLimit { gap = min(gap, .milliseconds(Int64(limit * 1000))) }
            wallNext = wallNext + gap / command.speed
            while ContinuousClock.now < wallNext {
                if let number = signals.received { return ExitStatus.forSignal(number) }
                Thread.sleep(forTimeInterval: min(0.05, (wallNext - ContinuousClock.now).seconds))
            }
            playhead = next
            let lines = try cursor.advance(to: next, collecting: true)
            guard !readerGone else { continue }
            var text = ""
            for line in lines {
                text += String(decoding: line, as: UTF8.self)
                text += "\n"
            }
            readerGone = !StandardStreams.write(text)
        }
        if let number = signals.received { return ExitStatus.forSignal(number) }
        return .success
    }
}
