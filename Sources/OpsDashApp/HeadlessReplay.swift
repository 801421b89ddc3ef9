import Foundation
import OpsMonitor
import OpsWire

/// `opsdash replay --headless`: writes a recording's event lines to stdout, paced by their times
/// (divided by `--speed`, pauses capped by `--idle-limit`). With `--start-at`, the picture at that
/// time comes first as a keyframe, so the output stands on its own. A `summary` line of the
/// picture reached comes last, as in the other headless modes (`"interrupted":true` after a
/// signal). With `--until`, the conditions are checked on the picture after each step, on the
/// recording's clock.
///
/// Output goes through an `OutputPump`, as in local headless mode: a reader that goes away ends
/// the replay at once with 141 (nothing on stderr), any other write error with one line and 3;
/// while the reader lags by more than `HeadlessRunner.backlogHighWater` bytes the replay waits.
struct HeadlessReplay {
    let reader: RecordingReader
    let command: ReplayCommand
    /// Where the events go (stdout).
    var descriptor: Int32 = 1

    func execute(signals: StopSignals) throws(RecordingError) -> ExitStatus {
        signals.handOver()
        let output = OutputPump(descriptor: descriptor)
        defer { output.close() }
        let start = min(command.startTime, reader.duration)
        // From the very start, events at time 0 are written too (a late join's first lines).
        var cursor = start > .zero ? try reader.cursor(at: start) : try reader.cursorAtStart()
        if start > .zero {
            output.write(KeyframeEncoder.bytes(cursor.builder.snapshot(), seq: cursor.seq))
        }
        var playhead = start
        var watch =
            command.until.isEmpty ? nil : UntilWatch((try? UntilOption.conditions(command.until, headless: true)) ?? [])
        var wallNext = ContinuousClock.now
        while let next = try cursor.nextEventTime() {
            var gap = next - playhead
            if let limit = command.idleDuration { gap = min(gap, limit) }
            wallNext = wallNext + gap / command.speed
            while ContinuousClock.now < wallNext {
                if let number = signals.received { return interrupted(number, cursor, output) }
                if let failure = output.failure { return HeadlessRunner.report(failure) }
                Thread.sleep(forTimeInterval: min(0.05, (wallNext - ContinuousClock.now).seconds))
            }
            playhead = next
            let lines = try cursor.advance(to: next, collecting: true)
            var text = ""
            for line in lines {
                text += String(decoding: line, as: UTF8.self)
                text += "\n"
            }
            output.write(text)
            if watch != nil {
                let picture = cursor.builder.snapshot()
                if let firing = watch?.observe(picture.counts, at: picture.time) {
                    output.write(UntilOption.line(firing))
                    writeSummary(of: cursor, interrupted: false, to: output)
                    return output.waitUntilWritten(signals: signals) ?? .untilFired
                }
            }
            if let number = signals.received { return interrupted(number, cursor, output) }
            if let stopped = output.waitForRoom(signals: signals) { return stopped }
        }
        if let number = signals.received { return interrupted(number, cursor, output) }
        writeSummary(of: cursor, interrupted: false, to: output)
        return output.waitUntilWritten(signals: signals) ?? .success
    }

    /// Ends after signal `number`: the summary of what was replayed, then the signal's status.
    private func interrupted(_ number: Int32, _ cursor: RecordingCursor, _ output: OutputPump) -> ExitStatus {
        writeSummary(of: cursor, interrupted: true, to: output)
        return output.endBySignal(number)
    }

    /// The summary line of the picture `cursor` reached.
    private func writeSummary(of cursor: RecordingCursor, interrupted: Bool, to output: OutputPump) {
        let snapshot = cursor.builder.snapshot()
        output.write(JSONLinesEncoder.summary(snapshot, duration: snapshot.time, interrupted: interrupted))
    }
}
