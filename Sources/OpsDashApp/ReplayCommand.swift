import ArgumentParser
import Foundation
import OpsMonitor
import OpsWire

/// `opsdash replay FILE`: the dashboard (or, headless, the event stream) fed by a recording.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opsdash replay",
        abstract: "Replay a recording made with --record in the dashboard, or as JSON Lines with --headless.",
        discussion: """
            Keys: space/p pause or play, . step, left/right seek 10 s, [ ] slower/faster, Home/End \
            start/end, q quit; queue-changing keys are refused. Exit codes: 0 done; 2 bad flags or a \
            bad recording (one line names the file, line and problem); 3 --headless output could not be \
            written; 4 an --until condition became true; 130/143 signal; 141 the --headless output's reader went away.
            """)

    @Argument(help: "The recording (opsdash --record FILE).")
    var file: String

    @Option(name: .long, parsing: .unconditional, help: "Play this many times faster than recorded (0.01...10000).")
    var speed: Double = 1

    @Option(
        name: .customLong("start-at"), parsing: .unconditional,
        help: ArgumentHelp(
            "Start at this recording time: seconds, m:ss or h:mm:ss (0...9999:59:59, not past the recording's end).",
            valueName: "time"))
    var startAt: String?

    @Option(
        name: .customLong("idle-limit"), parsing: .unconditional,
        help: ArgumentHelp(
            "Shorten pauses between events to at most this many seconds of recording time (0.001...1000000).",
            valueName: "seconds"))
    var idleLimit: Double?

    @Flag(name: .long, help: "No screen: write the recorded events to stdout, paced like the recording.")
    var headless = false

    @Option(name: .long, parsing: .unconditional, help: "Dashboard frames per second (1...120).")
    var fps: Int = 20

    @Option(name: .long, parsing: .unconditionalSingleValue, help: UntilOption.help)
    var until: [String] = []

    /// `--start-at` as a duration.
    var startTime: Duration {
        startAt.flatMap(ReplayTime.parse) ?? .zero
    }

    /// `--idle-limit` as a duration (validated: within `ReplayTime.idleLimitRange`).
    var idleDuration: Duration? {
        idleLimit.map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }

    func validate() throws {
        _ = try UntilOption.conditions(until, headless: headless)
        if !(speed.isFinite && speed >= 0.01 && speed <= 10_000) {
            throw ValidationError("--speed must be between 0.01 and 10000 (got \(speed))")
        }
        if let startAt, ReplayTime.parse(startAt) == nil {
            throw ValidationError(
                "--start-at must be seconds, m:ss or h:mm:ss (mm and ss below 60) between 0 and 9999:59:59 (got \(startAt))"
            )
        }
        if let idleLimit, !ReplayTime.idleLimitRange.contains(idleLimit) {
            throw ValidationError("--idle-limit must be between 0.001 and 1000000 seconds (got \(idleLimit))")
        }
        if !(1...120).contains(fps) {
            throw ValidationError("--fps must be between 1 and 120 (got \(fps))")
        }
    }

    /// Where the dashboard starts playing `reader`'s recording: `--start-at`, else the join of
    /// an attach recording (`RecordingReader.joinTime`; zero for the others).
    func start(in reader: RecordingReader) -> Duration {
        startAt == nil ? reader.joinTime : startTime
    }

    /// Why `--start-at` cannot be used with `reader`'s recording (it is past the end), or nil.
    func startProblem(_ reader: RecordingReader) -> String? {
        guard startTime > reader.duration, let startAt else { return nil }
        return "\(reader.path): --start-at \(startAt) is past the end of the recording (it ends at "
            + "\(ReplayTime.text(reader.duration)))"
    }

    /// How much of the recording is checked before anything is shown: the dashboard from the
    /// start opens at its first keyframe, the rest checked in the background (a 1,000,000-event
    /// recording took ~10 s to check); with `--start-at`, up to that time (to the end when it is
    /// past it); `--headless` checks every line first (a broken one is refused before any
    /// output).
    func opening(progress: OpeningProgress) -> RecordingReader.Opening {
        if headless { return .whole(progress: progress.update) }
        if startAt != nil { return .past(startTime, inBackground: true, progress: progress.update) }
        return .firstFrame(inBackground: true)
    }

    /// Opens the recording and replays it; returns the exit status. `stdoutClosed`: standard
    /// output was closed when `opsdash` started (headless mode then fails with 3).
    func execute(signals: StopSignals, stdoutClosed: Bool = false) -> ExitStatus {
        let reader: RecordingReader
        let progress = OpeningProgress(path: file)
        // A stop signal while opening ends opsdash at once: the progress line goes first.
        signals.beforeHandOver { _ in progress.finish() }
        do {
            defer { progress.finish() }
            reader = try RecordingReader(path: file, opening: opening(progress: progress))
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        if let problem = startProblem(reader) {
            StandardStreams.error("opsdash: \(problem)")
            return .usage
        }
        // On stderr at once; the dashboard also shows each in its message line (stderr is
        // behind its screen), as the background check finds them (`ReplaySource.warn`).
        if headless {
            for warning in reader.warnings { StandardStreams.error("opsdash: warning: \(warning)") }
        }
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
