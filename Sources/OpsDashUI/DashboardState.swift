import OpsMonitor

/// The dashboard's whole state. Pure value; changed only by `reduce`.
public struct DashboardState: Sendable {
    /// Terminal width in cells.
    public var width: Int
    /// Terminal height in cells.
    public var height: Int
    /// Unicode or ASCII drawing.
    public var glyphs: GlyphSet
    /// The newest snapshot of the queue.
    public var snapshot: QueueSnapshot
    /// The selected operation's id, which the selection follows when rows move.
    public var selectedID: Int?
    /// The selected row's index at the last update, to pick the nearest row when it goes away.
    public var selectedIndex: Int = 0
    /// The first visible row of the table or tree.
    public var scrollOffset: Int = 0
    /// The table's order.
    public var sort: SortOrder = .id
    /// The filter text (matches name, `#id` and state, case-insensitively); empty for none.
    public var filter: String = ""
    /// Whether typed characters currently edit the filter.
    public var isEditingFilter = false
    /// The filter as it was when `f` started the edit, restored by Esc.
    public var filterBeforeEdit = ""
    /// Whether the rows are only the failed operations (`!`), on top of the filter.
    package var failedOnly = false
    /// The search text (`/`): `n` and `N` select the next and previous row it matches in any
    /// field shown (`SearchMatch`), without hiding rows; empty for none.
    package var search = ""
    /// Whether typed characters currently edit the search.
    package var isEditingSearch = false
    /// The search as it was when `/` started the edit, restored by Esc.
    package var searchBeforeEdit = ""
    /// Whether the details pane is open.
    public var showDetails = false
    /// Whether ↑/↓ and the page keys scroll the details pane (Tab) instead of the table.
    public var isDetailsFocused = false
    /// The first details line shown.
    public var detailsScroll = 0
    /// The operation `detailsScroll` belongs to; selecting another starts at the top.
    public var detailsOperationID: Int?
    /// Whether the dependency tree replaces the table.
    public var showDependencies = false
    /// Whether the history view (`h`) replaces the table and the tree.
    package var showHistory = false
    /// Whether the help overlay is shown.
    public var showHelp = false
    /// The first help line shown, when the help is taller than the terminal.
    public var helpScroll = 0
    /// The question waiting for an answer, if any.
    public var prompt: Prompt?
    /// A concurrency limit asked for and not yet confirmed by a snapshot.
    public var pendingConcurrency: Int?
    /// A pause (true) or resume (false) asked for and not yet confirmed by a snapshot.
    public var pendingSuspended: Bool?
    /// A one-line answer to the last key (e.g. why it did nothing), shown in the footer until
    /// the next key.
    public var message: String?
    /// How many times faster than real time the monitor's clock runs (shown next to elapsed).
    public var speed: Double
    /// Where the picture comes from (nil for a local run), shown in the header.
    public var source: SourceStatus?
    /// The queue's changes and the commands given to it (log entries other than state changes
    /// and retries), kept from every picture up to `commandLogLimit`, newest last: what `a`
    /// shows in the event log after the picture's own log has moved on.
    package internal(set) var commandLog: [LogEntry] = []
    /// Whether the event log shows `commandLog` (`a`).
    package var showCommandLog = false
    /// How many entries `commandLog` keeps.
    package static let commandLogLimit = 200

    /// The dashboard was opened from the fleet list: `q` goes back to the list (the footer and
    /// the help say so) and `Q` quits opsdash.
    package var openedFromFleet = false
    /// What a local run runs (the scenario's name), shown in the header after "opsdash".
    package var title: String?
    /// Rows for the current sort, filter and view, rebuilt when the snapshot version changes.
    public var rows: RowOrder = .byID

    /// A dashboard of the given terminal size showing an empty queue whose clock runs `speed`
    /// times faster than real time.
    public init(width: Int, height: Int, glyphs: GlyphSet = .unicode, speed: Double = 1) {
        self.width = width
        self.height = height
        self.glyphs = glyphs
        self.speed = speed
        self.snapshot = QueueSnapshot()
    }

    /// The concurrency limit to show: the pending request, or the snapshot's.
    public var effectiveConcurrency: Int {
        pendingConcurrency ?? snapshot.maxConcurrentOperationCount
    }

    /// Whether the queue is paused or asked to pause: a second `p` before the picture shows
    /// the first one's effect toggles back.
    public var effectiveSuspended: Bool {
        pendingSuspended ?? snapshot.isSuspended
    }

    /// The selected operation, found in O(log n).
    public var selectedOperation: OperationSnapshot? {
        selectedID.flatMap { snapshot.operation(id: $0) }
    }
}

extension DashboardState {
    /// The newest `count` lines of the entries the event log shows: `commandLog` after `a`, else
    /// the picture's log (read where the monitor keeps it, not copied).
    func shownLogLines(_ count: Int) -> [LogLine] {
        showCommandLog ? LogLine.last(count, of: commandLog) : LogLine.last(count, of: snapshot.sharedLog)
    }

    /// How many lines the entries the event log shows make once merged.
    var shownLogLineCount: Int {
        showCommandLog ? LogLine.count(commandLog) : LogLine.count(snapshot.sharedLog)
    }

    /// Whether `entry` goes into `commandLog`: a queue change or a command, not an operation's
    /// state change or retry.
    static func isCommand(_ entry: LogEntry) -> Bool {
        isCommand(entry.kind)
    }

    /// Whether entries of `kind` go into `commandLog`.
    static func isCommand(_ kind: LogEntry.Kind) -> Bool {
        kind == .queue || kind == .action
    }

    /// Adds to `commandLog` the entries of `next` it has not seen: those newer than its newest,
    /// and at the same instant past those it has. A picture from earlier (a replay sought back, an
    /// app restarted) starts it again. The log's scans read each entry's kind and time in place
    /// (inside `OpsMonitor`): only the entries kept are copied (copying every entry of a busy
    /// log, its strings retained and released, was a tenth of a busy frame).
    mutating func keepCommands(of next: QueueSnapshot) {
        if next.time < snapshot.time { commandLog = [] }
        let log = next.sharedLog
        guard let newest = commandLog.last?.time else {
            commandLog = log.lastPositions(Self.commandLogLimit, where: Self.isCommand).map { log[$0] }
            return
        }
        var seenAtNewest = commandLog.reversed().prefix { $0.time == newest }.count
        // The log is in time order: only its tail from `newest` on can hold entries not seen,
        // so a frame reads the entries since the last picture, not all of them.
        for index in log.positions(in: log.startOfTail(from: newest)..<log.endIndex, where: Self.isCommand) {
            if log[index].time == newest && seenAtNewest > 0 {
                seenAtNewest -= 1
                continue
            }
            commandLog.append(log[index])
        }
        if commandLog.count > Self.commandLogLimit { commandLog.removeFirst(commandLog.count - Self.commandLogLimit) }
    }
}
