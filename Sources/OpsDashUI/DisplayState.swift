import OpsMonitor

/// An operation's state as the dashboard names it: the one vocabulary of the header counts, the
/// table, the tree, the details pane, the state sort and the filter.
///
/// Display only: the headless JSON Lines keep the monitor's wire values (`executing`,
/// `finished` with an `outcome`).
public enum DisplayState: String, Sendable, Equatable, CaseIterable {
    /// Has unfinished dependencies.
    case waiting
    /// Could start; paused or every slot busy.
    case ready
    /// Started and not finished.
    case running
    /// Started, and waiting out a back-off before its next attempt (counted as running).
    case retrying
    /// Finished without error.
    case succeeded
    /// Finished with an error.
    case failed
    /// Finished because it was cancelled.
    case cancelled

    /// The state of a lifecycle and (when finished) its outcome.
    public init(_ lifecycle: Lifecycle, _ outcome: Outcome?) {
        switch (lifecycle, outcome) {
        case (.waiting, _): self = .waiting
        case (.ready, _): self = .ready
        case (.executing, _): self = .running
        case (.finished, .failed?): self = .failed
        case (.finished, .cancelled?): self = .cancelled
        case (.finished, _): self = .succeeded
        }
    }

    /// The state of `operation`: `retrying` while it waits out a retry back-off.
    public init(_ operation: OperationSnapshot) {
        if operation.lifecycle == .executing, operation.nextAttemptAt != nil {
            self = .retrying
        } else {
            self.init(operation.lifecycle, operation.outcome)
        }
    }

    /// The states the header counts (a retrying operation is counted as running).
    public static let counted: [DisplayState] = [.waiting, .ready, .running, .succeeded, .failed, .cancelled]

    /// The word shown everywhere: "waiting", "ready", "running", "succeeded", "failed",
    /// "cancelled".
    public var word: String { rawValue }

    /// The abbreviation for the header's counts on a narrow terminal.
    var shortWord: String {
        switch self {
        case .waiting: "wait"
        case .ready: "rdy"
        case .running: "run"
        case .retrying: "retry"
        case .succeeded: "ok"
        case .failed: "fail"
        case .cancelled: "cxl"
        }
    }

    /// How the word (and an operation's bar) looks.
    var style: CellStyle {
        switch self {
        case .waiting: CellStyle(foreground: .magenta)
        case .ready: CellStyle(foreground: .yellow)
        case .running: CellStyle(foreground: .cyan, bold: true)
        case .retrying: CellStyle(foreground: .yellow, bold: true)
        case .succeeded: CellStyle(foreground: .green)
        case .failed: CellStyle(foreground: .red, bold: true)
        case .cancelled: CellStyle(foreground: .yellow, dim: true)
        }
    }

    /// Position in the state sort: running, ready, waiting, failed, cancelled, succeeded.
    var sortRank: Int {
        switch self {
        case .running, .retrying: 0
        case .ready: 1
        case .waiting: 2
        case .failed: 3
        case .cancelled: 4
        case .succeeded: 5
        }
    }

    /// Operations in this state, from the snapshot's counts.
    public func count(in counts: StateCounts) -> Int {
        switch self {
        case .waiting: counts.waiting
        case .ready: counts.ready
        case .running: counts.executing
        case .retrying: 0
        case .succeeded: counts.succeeded
        case .failed: counts.failed
        case .cancelled: counts.cancelled
        }
    }
}

extension OperationSnapshot {
    /// The operation's state in the dashboard's vocabulary.
    var displayState: DisplayState { DisplayState(self) }

    /// Whether the operation has finished, whatever the outcome.
    var hasFinished: Bool { lifecycle == .finished }
}

/// What an operation's amount and rate are told from: an `OperationSnapshot`, or a table row,
/// which holds these fields of it.
protocol ProgressAmounts {
    var kind: OperationKind { get }
    var unit: ProgressUnit { get }
    var completedUnits: Int64 { get }
    var totalUnits: Int64 { get }
    var unitsPerSecond: Double { get }
}

extension OperationSnapshot: ProgressAmounts {}

extension ProgressAmounts {
    /// Whether progress counts work units or items rather than bytes.
    var countsUnits: Bool { unit == .items || kind == .process }

    /// Done of total: bytes for transfers ("0.3/2.0 MB"), work units or items for everything
    /// else ("250/800 units").
    var amountText: String {
        countsUnits
            ? Format.units(completedUnits, of: totalUnits)
            : Format.bytes(completedUnits, of: totalUnits)
    }

    /// `amountText` in at most `width` columns where it can be said shorter: a count of work
    /// units too long for the BYTES column drops its " units" (the KIND column names them).
    func amountText(fitting width: Int) -> String {
        let text = amountText
        guard text.count > width, countsUnits, text.hasSuffix(" units") else { return text }
        return String(text.dropLast(" units".count))
    }

    /// The current rate in the same unit as `amountText`; empty when not moving.
    var rateText: String {
        countsUnits ? Format.unitRate(unitsPerSecond) : Format.rate(unitsPerSecond)
    }
}
