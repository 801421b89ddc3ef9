import OpsKit

/// Where an operation is in its life, as the dashboard shows it.
public enum Lifecycle: String, Sendable, Codable, CaseIterable {
    /// Has unfinished dependencies.
    case waiting
    /// Could start; the queue has not started it yet (paused, or all slots busy).
    case ready
    /// `start()` was called and the operation has not finished.
    case executing
    /// Finished; see `Outcome`.
    case finished
}

/// How a finished operation ended.
public enum Outcome: String, Sendable, Codable, CaseIterable {
    case succeeded, failed, cancelled
}

/// One recorded state change of an operation.
public struct StateChange: Sendable, Equatable {
    /// Clock time of the change, since the monitor started (to the nanosecond).
    public var time: Duration {
        get { .nanoseconds(timeNanoseconds) }
        set { timeNanoseconds = newValue.nanoseconds }
    }
    /// `time` in nanoseconds: a change takes 16 bytes where a `Duration` would make it 24.
    private(set) var timeNanoseconds: Int64
    /// The state entered.
    public var lifecycle: Lifecycle
    /// Set when `lifecycle == .finished`.
    public var outcome: Outcome?

    public init(time: Duration, lifecycle: Lifecycle, outcome: Outcome? = nil) {
        self.init(nanoseconds: time.nanoseconds, lifecycle: lifecycle, outcome: outcome)
    }

    /// A change at `nanoseconds` (a time already converted: `Duration.nanoseconds` divides).
    init(nanoseconds: Int64, lifecycle: Lifecycle, outcome: Outcome? = nil) {
        self.timeNanoseconds = nanoseconds
        self.lifecycle = lifecycle
        self.outcome = outcome
    }
}

/// An immutable picture of one operation at snapshot time.
///
/// A store keeps one per operation it tracks, so its stored fields are laid out small: the 8-byte
/// ones first, the one-byte ones last (Swift keeps declaration order), times as nanoseconds, and
/// a history of one change held inline (see `history`).
public struct OperationSnapshot: Sendable, Equatable, Identifiable {
    /// Monitor-assigned number, 1, 2, 3… in the order operations were added.
    public var id: Int
    /// The operation's name: `Operation.name`; for an unnamed one, a `QueueMonitor` gives its
    /// class and id (`BlockOperation #17`), and a store given no name shows "op-<id>".
    public var name: String {
        get { explicitName ?? Self.defaultName(id: id) }
        set { explicitName = newValue }
    }

    /// The name shown for operation `id` when it has none of its own: this prefix and the id.
    package static func defaultName(id: Int) -> String { defaultNamePrefix + String(id) }
    /// What `defaultName(id:)` puts before the id.
    package static let defaultNamePrefix = "op-"
    /// The name to keep as explicit: nil when `name` is absent or the generated one.
    package static func explicitName(_ name: String?, id: Int) -> String? {
        name == defaultName(id: id) ? nil : name
    }
    /// The name to write (`Operation.name`, or the class and id a monitor gave an unnamed
    /// one); nil for "op-<id>". A class-and-id name is built only when read.
    package var explicitName: String? {
        get { Self.resolvedName(storedName, addingID: nameAddsID ? id : nil) }
        set {
            storedName = newValue
            nameAddsID = false
        }
    }
    /// `Operation.name`; or, with `nameAddsID`, the class prefix (`"BlockOperation #"`) the
    /// id completes: shared by every operation of the class, so naming one costs no string.
    package private(set) var storedName: String?

    /// Names the operation after its class: `prefix` (`"BlockOperation #"`) and its id.
    package mutating func nameByClass(prefix: String) {
        storedName = prefix
        nameAddsID = true
    }

    /// `stored`, completed with `id` when given (a class prefix).
    package static func resolvedName(_ stored: String?, addingID id: Int?) -> String? {
        guard let id, let stored else { return stored }
        return stored + String(id)
    }
    /// The error's description when `outcome == .failed`, or why it was cancelled.
    public var message: String? {
        get { extras?.message }
        set {
            guard newValue != message else { return }
            extras = RowExtras.make(message: newValue, dependencies: dependencies, retryLog: retryLog)
        }
    }
    /// Units (bytes unless `unit` says items) done and in total; `totalUnits == 0` means
    /// unknown/no progress.
    public var completedUnits: Int64
    public var totalUnits: Int64
    /// Current rate in units (bytes unless `unit` says items) per second (0 when not moving).
    public var unitsPerSecond: Double
    /// Retries used so far.
    public var retries: Int
    /// Set while the operation waits out a retry back-off: the clock time (since monitor start)
    /// its next attempt starts. It is executing (it holds its slot) but not working.
    public var nextAttemptAt: Duration? {
        get { Self.time(nextAttemptNanoseconds) }
        set { nextAttemptNanoseconds = Self.nanoseconds(newValue) }
    }
    /// Clock times since monitor start (to the nanosecond).
    public var addedAt: Duration {
        get { .nanoseconds(addedNanoseconds) }
        set { addedNanoseconds = newValue.nanoseconds }
    }
    public var startedAt: Duration? {
        get { Self.time(startedNanoseconds) }
        set {
            holdHistoryApart(finish: false)
            startedNanoseconds = Self.nanoseconds(newValue)
        }
    }
    public var finishedAt: Duration? {
        get { Self.time(finishedNanoseconds) }
        set {
            holdHistoryApart(finish: true)
            finishedNanoseconds = Self.nanoseconds(newValue)
        }
    }

    /// Sets `startedAt` to the time of `nanoseconds` (already converted).
    mutating func setStartedAt(nanoseconds: Int64) {
        holdHistoryApart(finish: false)
        startedNanoseconds = max(Self.noTime + 1, nanoseconds)
    }

    /// Sets `finishedAt` to the time of `nanoseconds` (already converted).
    mutating func setFinishedAt(nanoseconds: Int64) {
        holdHistoryApart(finish: true)
        finishedNanoseconds = max(Self.noTime + 1, nanoseconds)
    }

    /// The times in nanoseconds, `Self.noTime` for nil: 8 bytes each where a `Duration` takes
    /// 16 and a `Duration?` 24.
    private var nextAttemptNanoseconds: Int64
    private var addedNanoseconds: Int64
    private(set) var startedNanoseconds: Int64
    private(set) var finishedNanoseconds: Int64
    private static let noTime = Int64.min

    /// `time` in nanoseconds (saturating), never `noTime`; `noTime` for nil.
    private static func nanoseconds(_ time: Duration?) -> Int64 {
        time.map { max(Self.noTime + 1, $0.nanoseconds) } ?? Self.noTime
    }
    /// The time `nanoseconds` stands for; nil for `noTime`.
    private static func time(_ nanoseconds: Int64) -> Duration? {
        nanoseconds == Self.noTime ? nil : .nanoseconds(nanoseconds)
    }
    /// Ids of the operations this one depends on.
    public var dependencies: [Int] {
        get { extras?.dependencies ?? [] }
        set {
            guard newValue != dependencies else { return }
            extras = RowExtras.make(message: message, dependencies: newValue, retryLog: retryLog)
        }
    }
    /// The history while it holds two changes or more that the row's times do not tell
    /// (`firstChange` nil); empty otherwise.
    var changes: [StateChange]
    /// Human-readable retry events ("attempt 1 failed at 50%: connection reset").
    public var retryLog: [String] {
        get { extras?.retryLog ?? [] }
        set {
            guard newValue != retryLog else { return }
            extras = RowExtras.make(message: message, dependencies: dependencies, retryLog: newValue)
        }
    }
    /// `message`, `dependencies` and `retryLog`, which most operations leave empty, behind one
    /// reference (nil while all three are): copying or freeing a row (a store chunk a picture
    /// shares is copied at the store's first write to it) retains or releases one reference
    /// for them instead of three. Setting one of them to what it holds allocates nothing (a
    /// finish sets the message, nil for most, of operations that have dependencies).
    private(set) var extras: RowExtras?
    /// The history while it holds one change (a waiting or ready operation's: added), kept
    /// inline so that a queued operation's row allocates no array; nil otherwise.
    var firstChange: StateChange?
    /// Whether `storedName` is a class prefix to complete with the id.
    package private(set) var nameAddsID = false
    /// The changes after `firstChange` that the row's own fields tell (`HistoryFromTimes`):
    /// its start at `startedAt`, its finish at `finishedAt` with `outcome`.
    var historyFromTimes = HistoryFromTimes()
    /// What it does (`ProgressReportingOperation.kind`; `.other` for an operation that reports
    /// no progress).
    public var kind: OperationKind
    /// What its units count: bytes, or items (files, pages, steps).
    public var unit: ProgressUnit
    public var lifecycle: Lifecycle
    /// Set once finished.
    public var outcome: Outcome? {
        get { storedOutcome }
        set {
            holdHistoryApart(finish: true)
            storedOutcome = newValue
        }
    }
    /// `outcome` (its setter first writes out a history its fields tell).
    private var storedOutcome: Outcome?

    public init(
        id: Int, name: String, kind: OperationKind = .other, unit: ProgressUnit = .bytes, lifecycle: Lifecycle = .ready,
        outcome: Outcome? = nil, message: String? = nil, completedUnits: Int64 = 0,
        totalUnits: Int64 = 0, unitsPerSecond: Double = 0, retries: Int = 0, nextAttemptAt: Duration? = nil,
        dependencies: [Int] = [], addedAt: Duration = .zero, startedAt: Duration? = nil,
        finishedAt: Duration? = nil, history: [StateChange] = [], retryLog: [String] = []
    ) {
        self.id = id
        self.storedName = name
        self.extras = RowExtras.make(message: message, dependencies: dependencies, retryLog: retryLog)
        self.completedUnits = completedUnits
        self.totalUnits = totalUnits
        self.unitsPerSecond = unitsPerSecond
        self.retries = retries
        self.nextAttemptNanoseconds = Self.nanoseconds(nextAttemptAt)
        self.addedNanoseconds = addedAt.nanoseconds
        self.startedNanoseconds = Self.nanoseconds(startedAt)
        self.finishedNanoseconds = Self.nanoseconds(finishedAt)
        self.changes = history.count > 1 ? history : []
        self.firstChange = history.count == 1 ? history[0] : nil
        self.kind = kind
        self.unit = unit
        self.lifecycle = lifecycle
        self.storedOutcome = outcome
    }

    /// Equal when every field is, names compared as shown (a class-and-id name equals the same
    /// text given whole, as a viewer rebuilds it). Every stored field is listed here.
    public static func == (lhs: OperationSnapshot, rhs: OperationSnapshot) -> Bool {
        guard lhs.id == rhs.id, lhs.kind == rhs.kind, lhs.unit == rhs.unit, lhs.lifecycle == rhs.lifecycle,
            lhs.outcome == rhs.outcome, lhs.message == rhs.message, lhs.completedUnits == rhs.completedUnits,
            lhs.totalUnits == rhs.totalUnits, lhs.unitsPerSecond == rhs.unitsPerSecond, lhs.retries == rhs.retries,
            lhs.nextAttemptNanoseconds == rhs.nextAttemptNanoseconds, lhs.dependencies == rhs.dependencies,
            lhs.addedNanoseconds == rhs.addedNanoseconds, lhs.startedNanoseconds == rhs.startedNanoseconds,
            lhs.finishedNanoseconds == rhs.finishedNanoseconds, lhs.retryLog == rhs.retryLog,
            lhs.historyFromTimes == rhs.historyFromTimes
                ? lhs.firstChange == rhs.firstChange && lhs.changes == rhs.changes : lhs.history == rhs.history
        else { return false }
        if lhs.nameAddsID == rhs.nameAddsID { return lhs.storedName == rhs.storedName }
        return lhs.explicitName == rhs.explicitName
    }

    /// Progress in 0…1 (0 when the total is unknown; 1 when succeeded).
    public var fraction: Double {
        Self.fraction(completed: completedUnits, total: totalUnits, outcome: outcome)
    }

    /// `fraction` of an operation with these units done and in total and this outcome.
    package static func fraction(completed: Int64, total: Int64, outcome: Outcome?) -> Double {
        if outcome == .succeeded { return 1 }
        guard total > 0 else { return 0 }
        return min(1, max(0, Double(completed) / Double(total)))
    }

    /// Whether a retry is due: `nextAttemptAt != nil`, without building the time.
    package var isRetryDue: Bool { nextAttemptNanoseconds != Self.noTime }
}
