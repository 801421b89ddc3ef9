import Foundation
import OpsDashLoop
import OpsDashUI
import OpsMonitor
import OpsWire

/// A recording as a dashboard source: a playhead on the recording's clock that moves with the
/// wall clock times `speed` unless paused; the picture is the recording at the playhead. Queue
/// commands are refused; pause/resume toggles playing.
package final class ReplaySource: DashboardSource {
    package let reader: RecordingReader
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
    private var timelineIsWhole = false
    /// Where the header's status goes (from `start(sendingTo:)`), and what was sent last.
    private var inbox: LoopInbox?
    private var sentStatus: SourceStatus?
    /// Paused, where the cursor still has to get to (after a pause or a seek): it moves there
    /// a frame's work at a time, as playing does.
    private var pausedTarget: Duration?
    /// A `.` whose keyframe is still being applied, a frame's work at a time.
    private var pendingStep = false
    /// The recording's last picture, while `g` or `h` waits for it (built a frame's work at a
    /// time), and what waits: the operation `g` looks for, the timeline `h` opens.
    private var endPicture: ReplayEndPicture?
    private var jumpWanted: Int?
    private var timelineWanted = false
    /// Whether `g` or `h` still waits for the recording's last picture.
    package var isReadingEnd: Bool { endPicture != nil }
    /// Says each warning the recording's check finds (`DashboardNotices` in `opsdash replay`),
    /// and how many it has said.
    var warn: ((String) -> Void)?
    private var warningsSaid = 0

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
        noteCheck()
        var target = position
        isCatchingUp = false
        let deadline = ContinuousClock.now + frameBudget
        // What `g` or `h` waits for first, half the frame's budget at most.
        if endPicture != nil {
            buildEndPicture(until: ContinuousClock.now + frameBudget / 2)
            target = position
        }
        do {
            if isPaused {
                // Paused, the cursor is where the pause, a seek or a step left it (a step leaves
                // events of the same time unapplied), once it has got there.
                isCatchingUp = try !catchUp(until: deadline)
            } else {
                // Skip long quiet stretches (--idle-limit): jump to just before the next event.
                if let idleLimit, let next = try cursor.nextEventTime(), next - target > idleLimit {
                    setAnchor(next - idleLimit)
                    target = anchorTime
                }
                isCatchingUp = try !moveForward(to: target, until: deadline)
            }
        } catch {
            problem = error.description
            pausedTarget = nil
            pendingStep = false
        }
        // Half a keyframe is no picture: the last one stays until it is whole.
        guard cursor.isWhole else { return nil }
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

    /// Takes in what the recording's check found since the last frame: its warnings (said
    /// through `warn`) and a problem (on show in the status; `opsdash replay` exits 2 with it).
    private func noteCheck() {
        if let warn {
            let warnings = reader.warnings
            for warning in warnings.dropFirst(warningsSaid) { warn(warning) }
            warningsSaid = max(warningsSaid, warnings.count)
        }
        if problem == nil, let found = reader.problem { problem = found.description }
    }

    /// The recording and the playhead for the header.
    func status() -> SourceStatus {
        let isChecked = reader.isChecked
        let atEnd = isChecked || reader.problem != nil ? position >= reader.duration : false
        let state: Playback.State = isPaused ? .paused : (atEnd ? .end : .playing)
        // At the end of a recording whose end is torn (a line or keyframe cut short), the
        // warning said when the replay opened is on show again: the picture stops there.
        let endWarning = state == .end ? reader.warning.map { "warning: \($0)" } : nil
        // A large recording opens at once and is checked on in the background: its length
        // grows until the check is done.
        let checking = isChecked ? nil : "checking \(Self.percent(reader.checked.bytes, of: reader.size))%"
        let reading =
            endPicture == nil
            ? nil : jumpWanted.map { "g: finding #\($0)'s last change" } ?? "h: reading the recording's timeline"
        return SourceStatus(
            label: "REPLAY \(reader.header.queue) \(reader.header.started)",
            detail: (problem ?? reading ?? stepped ?? endWarning ?? checking).map { "— \($0)" } ?? "",
            link: problem != nil ? .disconnected : (isPaused ? .connecting : .connected),
            playback: playback(state))
    }

    /// `part` of `whole` in whole percent (0 for an empty whole, at most 100).
    static func percent(_ part: UInt64, of whole: UInt64) -> UInt64 {
        whole > 0 ? min(100, part / max(1, whole / 100)) : 0
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
    package func handle(_ key: Key, in state: DashboardState) -> Bool {
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

    package func togglePause() {
        guard !isPaused else {
            stepped = nil
            pendingStep = false
            setAnchor(position)
            isPaused = false
            pausedTarget = nil
            return
        }
        pause()
        keyWork()
    }

    /// Pauses where the playhead is; the cursor gets there in the frames after.
    private func pause() {
        stepped = nil
        pendingStep = false
        setAnchor(position)
        isPaused = true
        pausedTarget = anchorTime
    }

    /// Jumps to `time` (clamped to the recording), from the nearest keyframe: the cursor gets
    /// there a frame's work at a time (`frameBudget`), the last picture staying until it does.
    package func seek(to time: Duration) {
        stepped = nil
        pendingStep = false
        // A `g` still looking for its operation's last change is overtaken.
        jumpWanted = nil
        if !timelineWanted { endPicture = nil }
        let target = max(.zero, min(time, reader.duration))
        do {
            if target < cursor.time { cursor = try reader.cursor(from: reader.mark(before: target)) }
        } catch {
            problem = error.description
        }
        if isPaused { pausedTarget = target }
        keyWork(playingTo: target)
        // Playing, the playhead moves on from the target once the key's work is done.
        setAnchor(target)
    }

    /// The work a key asks for (a pause, a seek, a step), as much as half a frame's budget
    /// allows at once; the frames after it do the rest (`catchUp(until:)`, or playing on to
    /// the playhead). Playing, the cursor moves towards `target`.
    private func keyWork(playingTo target: Duration? = nil) {
        lastShown = nil
        let deadline = ContinuousClock.now + frameBudget / 2
        do {
            if isPaused {
                _ = try catchUp(until: deadline)
            } else {
                _ = try moveForward(to: target ?? position, until: deadline)
            }
        } catch {
            problem = error.description
            pausedTarget = nil
            pendingStep = false
        }
    }

    /// Paused: moves the cursor on to where a pause or seek left the playhead, then applies a
    /// pending step, until `deadline`; true when nothing is left to do.
    private func catchUp(until deadline: ContinuousClock.Instant) throws(RecordingError) -> Bool {
        if let target = pausedTarget {
            guard try moveForward(to: target, until: deadline) else { return false }
            pausedTarget = nil
        }
        guard pendingStep else { return true }
        switch try cursor.step(until: deadline) {
        case .interrupted:
            return false
        case .stepped:
            pendingStep = false
            setAnchor(max(anchorTime, cursor.time))
            stepped = cursor.lastStepped.map {
                ReplayStepText.describe($0, seq: cursor.seq, in: cursor.builder.snapshot())
            }
        case .atEnd:
            pendingStep = false
        }
        return true
    }

    /// Moves the cursor forward to `time`: from the latest keyframe before `time` when one lies
    /// past the cursor and loading it is cheaper than reading the lines up to it, else through
    /// the events in between (passing over large keyframes: `RecordingCursor.skippedKeyframeLines`).
    /// Either way the work is bounded by the keyframe policy (a keyframe every 10 s or 5,000
    /// events, and at least as many events as the keyframe before has lines), whatever the
    /// speed, and stops at `deadline` (`RecordingCursor.advance(to:until:)`, inside a keyframe
    /// too); false when it stopped before `time`. At ×100 a frame of a busy recording spans tens
    /// of thousands of events; loading a keyframe of 165,000 queued operations takes 0.7 s.
    private func moveForward(to time: Duration, until deadline: ContinuousClock.Instant) throws(RecordingError) -> Bool
    {
        let mark = reader.mark(before: time)
        if mark.time > cursor.time, Self.jumps(from: cursor.line, to: mark) {
            cursor = try reader.cursor(from: mark)
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
    /// The recording's last picture, which holds every operation's latest change, is read first,
    /// half a frame's budget at once and the rest over the frames after (the status says so).
    func jumpToLastChange(of id: Int?) {
        guard let id else {
            stepped = "g: nothing selected"
            return
        }
        jumpWanted = id
        buildEndPicture(until: ContinuousClock.now + frameBudget / 2)
    }

    /// Pauses at `change`, operation `operation`'s last change, and says so.
    private func jump(to id: Int, in end: QueueSnapshot) {
        guard let operation = end.operation(id: id), let change = operation.history.last else {
            stepped = "g: #\(id) has no state change in the recording's last picture"
            return
        }
        if !isPaused { pause() }
        seek(to: change.time)
        let word = DisplayState(change.lifecycle, change.outcome).word
        stepped = "#\(id) \(operation.name): \(word) at \(Playback.clock(change.time))"
    }

    /// Builds the recording's last picture until `deadline` (begun when none is under way), and
    /// once it is whole, does what waits for it: `g`'s jump, `h`'s timeline.
    private func buildEndPicture(until deadline: ContinuousClock.Instant) {
        defer { sendStatusIfChanged() }
        do {
            // Moved out while it is built on, so that its store is not copied.
            var picture: ReplayEndPicture
            if let building = endPicture {
                picture = building
                endPicture = nil
            } else {
                picture = try ReplayEndPicture(reader: reader)
            }
            guard let end = try picture.build(until: deadline) else {
                endPicture = picture
                return
            }
            if timelineWanted {
                timelineWanted = false
                timelineIsWhole = picture.isOfWholeRecording
                timeline = try reader.timeline(endingWith: end.history)
            }
            if let id = jumpWanted {
                jumpWanted = nil
                jump(to: id, in: end)
            }
        } catch {
            problem = error.description
            endPicture = nil
            jumpWanted = nil
            timelineWanted = false
        }
    }

    /// Reads the recording's per-second history over its whole length, once, a frame's work at
    /// a time (`buildEndPicture`). (Read again when opened again, when the recording's check was
    /// still going on: the timeline then covered the part checked.)
    private func loadTimeline() {
        guard timeline == nil || !timelineIsWhole else { return }
        timelineWanted = true
        buildEndPicture(until: ContinuousClock.now + frameBudget / 2)
    }

    /// Moves the history view's cursor (the playhead) by `step` of recording time and pauses
    /// there: the table shows that moment.
    func moveCursor(by step: Duration) {
        if !isPaused { togglePause() }
        seek(to: position + step)
    }

    /// Applies the next event line, exactly one (a keyframe before it whole, over several
    /// frames when large), and pauses there.
    func step() {
        // At the end there is nothing to step to: the status stays "end".
        if !isPaused, position < reader.duration { togglePause() }
        guard isPaused else { return }
        pendingStep = true
        keyWork()
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
        source.warn = { DashboardNotices.post("warning: \($0)") }
        switch DashboardRunner.show(source, fps: command.fps, signals: signals) {
        case nil: return .usage
        case .signal(let number)?: return ExitStatus.forSignal(number)
        case .terminalClosed?: return .hangup
        case .quit?:
            // A broken line the background check found (shown in the header meanwhile).
            guard let problem = reader.problem else { return .success }
            StandardStreams.error("opsdash: \(problem)")
            return .usage
        }
    }
}
