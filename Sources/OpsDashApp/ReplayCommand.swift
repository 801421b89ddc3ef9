import ArgumentParser
import Foundation
import OpsMonitor

/// `opsdash replay FILE`: the dashboard (or, headless, the event stream) fed by a recording.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opsdash replay",
        abstract: "Replay a recording made with --record in the dashboard, or as JSON Lines with --headless.",
        discussion: """
            Keys: space/p pause or play, . step, left/right seek 10 s, [ ] slower/faster, Home/End \
            start/end, q quit; queue-changing keys are refused. Exit codes: 0 done; 2 bad flags or a \
            bad recording (one line names the file, line and problem); 3 --headless output could not be \
            written; 130/143 signal; 141 the --headless output's reader went away.
            """)

    @Argument(help: "The recording (opsdash --record FILE).")
    var file: String

    @Option(name: .long, help: "Play this many times faster than recorded (0.01...10000).")
    var speed: Double = 1

    @Option(
        name: .customLong("start-at"),
        help: ArgumentHelp("Start at this recording time: seconds, m:ss or h:mm:ss.", valueName: "time"))
    var startAt: String?

    @Option(
        name: .customLong("idle-limit"),
        help: ArgumentHelp(
            "Shorten pauses between events to at most this many seconds of recording time.", valueName: "seconds"))
    var idleLimit: Double?

    @Flag(name: .long, help: "No screen: write the recorded events to stdout, paced like the recording.")
    var headless = false

    @Option(name: .long, help: "Dashboard frames per second (1...120).")
    var fps: Int = 20

    /// `--start-at` as a duration.
    var startTime: Duration {
        startAt.flatMap(Self.parseTime) ?? .zero
    }

    /// "90", "1:30", "1:02:03", "12.5" → a duration; nil if malformed.
    static func parseTime(_ text: String) -> Duration? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value.isFinite, value >= 0 else { return nil }
            if index < parts.count - 1, value != value.rounded() { return nil }
            seconds = seconds * 60 + value
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    func validate() throws {
        if !(speed.isFinite && speed >= 0.01 && speed <= 10_000) {
            throw ValidationError("--speed must be between 0.01 and 10000 (got \(speed))")
        }
        if let startAt, Self.parseTime(startAt) == nil {
            throw ValidationError("--start-at must be seconds, m:ss or h:mm:ss (got \(startAt))")
        }
        if let idleLimit, !(idleLimit.isFinite && idleLimit > 0) {
            throw ValidationError("--idle-limit must be a positive number of seconds (got \(idleLimit))")
        }
        if !(1...120).contains(fps) {
            throw ValidationError("--fps must be between 1 and 120 (got \(fps))")
        }
    }

    /// Opens the recording and replays it; returns the exit status. `stdoutClosed`: standard
    /// output was closed when `opsdash` started (headless mode then fails with 3).
    func execute(signals: StopSignals, stdoutClosed: Bool = false) -> ExitStatus {
        let reader: RecordingReader
        do {
            reader = try RecordingReader(path: file)
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        if let warning = reader.warning { StandardStreams.error("opsdash: warning: \(warning)") }
        do {
            if headless, stdoutClosed { return HeadlessRunner.report(.writeFailed(EBADF)) }
            if headless { return try HeadlessReplay(reader: reader, command: self).execute(signals: signals) }
            return try ReplayDashboard.run(reader: reader, command: self, signals: signals)
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
    }
}
