import Foundation
import OpsDashLoop
import OpsDashUI
import OpsMonitor
import OpsWire

/// A recording as a dashboard source: a playhead on the recording's clock that moves with the
/// wall clock times `speed` unless paused; the picture is the recording at the playhead. Queue
/// commands are refused; pause/resume toggles playing.
package final class ReplaySource: DashboardSource {
    let reader: RecordingReader
    private(set) var cursor: RecordingCursor
    private(set) var speed: Double
    private(set) var isPaused = false
    private let idleLimit: Duration?
    /// Recording time at `anchor`.
    private var anchorTime: Duration
    private var anchor = ContinuousClock.now
    private var lastShown: (version: UInt64, tenth: Int64)?
    /// Whether the last frame's events were cut short by `frameBudget`, and when the last
    /// picture was taken.
    package private(set) var isCatchingUp = false
    private var lastPictureAt: ContinuousClock.Instant?
    private var problem: String?
    /// What the last `.` applied, shown in the status until playing or seeking.
    private var stepped: String?
    /// The recording's per-second history over its whole length (`RecordingReader.timeline()`),
    /// read when the history view first opens: the timeline its cursor moves on.
    private var timeline: QueueHistory?
    /// Where the header's status goes (from `start(sendingTo:)`), and what was sent last.
    private var inbox: LoopInbox?
    private var sentStatus: SourceStatus?

    package init(reader: RecordingReader, start: Duration, speed: Double, idleLimit: Duration?) throws(RecordingError) {
        self.reader = reader
        self.speed = speed
        self.idleLimit = idleLimit
        let start = min(start, reader.duration)
        cursor = try reader.cursor(at: start)
        anchorTime = start
    }

    /// The recording time shown now.
    var position: Duration {
        guard !isPaused else { return anchorTime }
        return min(reader.duration, anchorTime + (ContinuousClock.now - anchor) * speed)
    }

    /// Sends the status (the playhead, the playback state) to the loop from now on.
    func start(sendingTo inbox: LoopInbox) {
        self.inbox = inbox
        sendStatusIfChanged()
    }

    func stop() { inbox = nil }

    /// Sends the status to the loop when it changed (after each picture, key and command).
    private func sendStatusIfChanged() {
        guard let inbox else { return }
        let status = status()
        guard status != sentStatus else { return }
        sentStatus = status
        inbox.send(.source(status))
    }

    package func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot? {
        defer { sendStatusIfChanged() }
        var target = position
        isCatchingUp = false
        // Paused, the cursor is where the pause, a seek or a step left it (a step leaves events
        // of the same time unapplied).
        if !isPaused {
            do {
                // Skip long quiet stretches (--idle-limit): jump to just before the next event.
                if let idleLimit, let next = try cursor.nextEventTime(), next - target > idleLimit {
                    setAnchor(next - idleLimit)
                    target = anchorTime
                }
                isCatchingUp = try !moveForward(to: target, until: ContinuousClock.now + frameBudget)
            } catch {
                problem = error.description
            }
        }
        if isCatchingUp {
            // Behind the playhead: the picture is taken at most every `catchUpPictureInterval`,
            // and shows the recording where the cursor got to.
            if let lastPictureAt, ContinuousClock.now - lastPictureAt < Self.catchUpPictureInterval { return nil }
            target = cursor.time
        }
        lastPictureAt = ContinuousClock.now
        let snapshot = cursor.builder.snapshot()
        let tenth = Int64(target.seconds * 10)
        if let version, let lastShown, lastShown.version == snapshot.version, lastShown.tenth == tenth,
            version == snapshot.version
        {
            return nil
        }
        lastShown = (snapshot.version, tenth)
        var shown = snapshot
        shown.time = target
        return shown
    }

    func perform(_ command: Command) -> String? {
        defer { sendStatusIfChanged() }
        switch command {
        case .setSuspended:
            togglePause()
            return nil
        case .repaint, .quit:
            return nil
        case .cancel, .cancelAll, .cancelMany, .setMaxConcurrentOperationCount:
            return "replay: a recording cannot be changed"
        }
    }

    /// The recording and the playhead for the header.
    func status() -> SourceStatus {
        let state: Playback.State = isPaused ? .paused : (position >= reader.duration ? .end : .playing)
        // At the end of a recording whose end is torn (a line or keyframe cut short), the
        // warning said when the replay opened is on show again: the picture stops there.
        let endWarning = state == .end ? reader.warning.map { "warning: \($0)" } : nil
        return SourceStatus(
            label: "REPLAY \(reader.header.queue) \(reader.header.started)",
            detail: (problem ?? stepped ?? endWarning).map { "— \($0)" } ?? "",
            link: problem != nil ? .disconnected : (isPaused ? .connecting : .connected),
            playback: playback(state))
    }

    private func playback(_ state: Playback.State) -> Playback {
        var playback = Playback(position: position, length: reader.duration, speed: speed, state: state)
        playback.timeline = timeline
        return playback
    }

    // MARK: Transport

    /// Replay keys: `.` step, ←/→ seek 10 s, `[`/`]` slower/faster, Home/End start/end, `g` the
    /// selected operation's last change (space
    /// and `p` reach `perform` as pause/resume). Not while typing a filter or a search, answering a prompt
    /// or reading help.
    func handle(_ key: Key, in state: DashboardState) -> Bool {
        guard !state.isEditingFilter, !state.isEditingSearch, state.prompt == nil, !state.showHelp else { return false }
        if let step = state.historyCursorStep, key == .left || key == .right {
            moveCursor(by: key == .left ? .zero - step : step)
            return true
        }
        switch key {
        case .character("h"):
            // The dashboard opens the view; the recording's timeline is read once, for it.
            if !state.showHistory { loadTimeline() }
            return false
        case .character("."): step()
        case .left: seek(to: position - .seconds(10))
        case .right: seek(to: position + .seconds(10))
        case .character("["): setSpeed(speed / 2)
        case .character("]"): setSpeed(speed * 2)
        case .home: seek(to: reader.joinTime)
        case .end: seek(to: reader.duration)
        case .character("g"): jumpToLastChange(of: state.selectedID)
        default: return false
        }
        return true
    }

    func togglePause() {
        stepped = nil
        setAnchor(position)
        isPaused.toggle()
        guard isPaused else { return }
        do { try cursor.advance(to: anchorTime) } catch { problem = error.description }
        lastShown = nil
    }

    /// Jumps to `time` (clamped to the recording), from the nearest keyframe.
    func seek(to time: Duration) {
        stepped = nil
        let target = max(.zero, min(time, reader.duration))
        do {
            if target < cursor.time {
                cursor = try reader.cursor(at: target)
            } else {
                try moveForward(to: target)
            }
        } catch {
            problem = error.description
        }
        setAnchor(target)
        lastShown = nil
    }

    /// Moves the cursor forward to `time`: from the latest keyframe before `time` when one lies
    /// past the cursor and loading it is cheaper than reading the lines up to it, else through
    /// the events in between (passing over large keyframes: `RecordingCursor.skippedKeyframeLines`).
    /// Either way a frame's work is bounded by the keyframe policy (a keyframe every 10 s or
    /// 5,000 events, and at least as many events as the keyframe before has lines), whatever
    /// the speed: at ×100 a frame of a busy recording spans tens of thousands of events, and
    /// applying them all froze the picture for seconds; loading a keyframe of 165,000 queued
    /// operations takes 0.7 s.
    private func moveForward(to time: Duration) throws(RecordingError) {
        let mark = reader.mark(before: time)
        if mark.time > cursor.time, Self.jumps(from: cursor.line, to: mark) {
            cursor = try reader.cursor(at: time)
        } else {
            try cursor.advance(to: time)
        }
    }

    /// `moveForward(to:)` while playing: reading on through the events stops at `deadline`
    /// (`RecordingCursor.advance(to:until:)`); false when it stopped before `time`.
    private func moveForward(to time: Duration, until deadline: ContinuousClock.Instant) throws(RecordingError) -> Bool
    {
        let mark = reader.mark(before: time)
        if mark.time > cursor.time, Self.jumps(from: cursor.line, to: mark) {
            cursor = try reader.cursor(at: time)
            return true
        }
        return try cursor.advance(to: time, until: deadline)
    }

    /// The most time a frame spends applying a recording's events while playing: an instant of
    /// 150,000 events is applied over several frames instead of freezing one for 0.7 s.
    package var frameBudget = Duration.milliseconds(40)
    /// While the cursor is behind the playhead, a picture is taken at most this often (each costs
    /// a snapshot, a reduce and a render of the whole store).
    static let catchUpPictureInterval = Duration.milliseconds(250)

    /// How much more a keyframe line costs to load than an event line to apply (decoding its
    /// longer line, and rebuilding the store from the whole keyframe).
    static let keyframeLineCost = 4

    /// Whether a cursor at line `line` reaches `mark` sooner by loading it than by reading on.
    static func jumps(from line: Int, to mark: RecordingReader.Mark) -> Bool {
        mark.line - line > mark.lines * keyframeLineCost
    }

    /// Jumps to when operation `id` last changed state in the whole recording (its failure, say:
    /// found with `/` and `n`, then `g`), and pauses there; the status says what the change was.
    func jumpToLastChange(of id: Int?) {
        guard let id else {
            stepped = "g: nothing selected"
            return
        }
        do {
            // The recording's last picture holds every operation's latest change.
            let end = try reader.cursor(at: reader.duration).builder.snapshot()
            guard let operation = end.operation(id: id), let change = operation.history.last else {
                stepped = "g: #\(id) has no state change in the recording's last picture"
                return
            }
            if !isPaused { togglePause() }
            seek(to: change.time)
            let word = DisplayState(change.lifecycle, change.outcome).word
            stepped = "#\(id) \(operation.name): \(word) at \(Playback.clock(change.time))"
        } catch {
            problem = error.description
        }
    }

    /// Reads the recording's per-second history over its whole length, once.
    private func loadTimeline() {
        guard timeline == nil else { return }
        do {
            timeline = try reader.timeline()
        } catch {
            problem = error.description
        }
        sendStatusIfChanged()
    }

    /// Moves the history view's cursor (the playhead) by `step` of recording time and pauses
    /// there: the table shows that moment.
    func moveCursor(by step: Duration) {
        if !isPaused { togglePause() }
        seek(to: position + step)
    }

    /// Applies the next event line, exactly one (a keyframe before it whole), and pauses there.
    func step() {
        // At the end there is nothing to step to: the status stays "end".
        if !isPaused, position < reader.duration { togglePause() }
        do {
            if try cursor.step() {
                setAnchor(max(anchorTime, cursor.time))
                stepped = cursor.lastStepped.map {
                    ReplayStepText.describe($0, seq: cursor.seq, in: cursor.builder.snapshot())
                }
            }
        } catch {
            problem = error.description
        }
        lastShown = nil
    }

    func setSpeed(_ newSpeed: Double) {
        setAnchor(position)
        speed = min(10_000, max(0.01, newSpeed))
    }

    private func setAnchor(_ time: Duration) {
        anchorTime = time
        anchor = ContinuousClock.now
    }
}

/// `opsdash replay FILE` with a screen.
enum ReplayDashboard {
    static func run(
        reader: RecordingReader, command: ReplayCommand, signals: StopSignals
    ) throws(RecordingError) -> ExitStatus {
        let source = try ReplaySource(
            reader: reader, start: command.start(in: reader), speed: command.speed, idleLimit: command.idleDuration)
        switch DashboardRunner.show(source, fps: command.fps, signals: signals) {
        case nil: return .usage
        case .signal(let number)?: return ExitStatus.forSignal(number)
        case .terminalClosed?: return .hangup
        case .quit?: return .success
        }
    }
}
