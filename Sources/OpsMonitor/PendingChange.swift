import Foundation
import OpsKit

/// Something the monitor saw on a worker thread, stamped with its clock time and waiting to be
/// applied to the store. Recording one costs a clock read and an array append; the store work
/// happens later, in order, in batches (on the monitor's applier or when someone reads).
enum PendingChange: Sendable {
    /// The queue took `operation` (in `lifecycle`) as ticket `ticket` (the number the queue
    /// names it by, in this change and every later one); `tokens` are the subscriptions made
    /// for it.
    case added(Operation, Lifecycle, ticket: UInt64, time: Duration, tokens: OperationTokens)
    /// The operation of `ticket` started executing. The changes a worker thread records for
    /// every operation (started, finished, ready) name it by ticket alone: the monitor holds the
    /// operation from its `added` change on, and a change that holds no reference is copied
    /// into the inbox and out of it without retaining and releasing the operation.
    case started(ticket: UInt64, time: Duration)
    /// The operation of `ticket` started executing and reports progress, which `progress` watches.
    case startedReporting(ticket: UInt64, time: Duration, progress: NSKeyValueObservation)
    /// The waiting operation of `ticket` became ready (its dependencies finished, or it was
    /// cancelled).
    case ready(ticket: UInt64, time: Duration)
    /// The progress-reporting operation of `ticket` published `progress` (boxed: a progress
    /// value is larger than the other cases, and most changes are not progress). It holds no
    /// reference to the operation: the last report of a finished one would otherwise free it
    /// wherever the change is applied.
    indirect case progressed(OperationProgress, ticket: UInt64, time: Duration)
    /// The operation of `ticket` finished (its outcome is read when applied; it no longer
    /// changes).
    case finished(ticket: UInt64, time: Duration)

    /// What a change taken out of a `ChangeChunks` list leaves in its place (holds nothing;
    /// never applied).
    static var taken: PendingChange { .finished(ticket: .max, time: .zero) }

    /// The ticket of the operation the change is about.
    var ticket: UInt64 {
        switch self {
        case .added(_, _, let ticket, _, _), .started(let ticket, _), .startedReporting(let ticket, _, _),
            .ready(let ticket, _), .progressed(_, let ticket, _), .finished(let ticket, _):
            return ticket
        }
    }

    /// Whether the change adds or finishes an operation (what a look ahead over a backlog
    /// counts), and the ticket it is about.
    var step: (ticket: UInt64, adds: Bool, finishes: Bool) {
        switch self {
        case .added(_, _, let ticket, _, _): (ticket, true, false)
        case .finished(let ticket, _): (ticket, false, true)
        case .started(let ticket, _), .startedReporting(let ticket, _, _), .ready(let ticket, _),
            .progressed(_, let ticket, _):
            (ticket, false, false)
        }
    }

    /// When the change was stamped.
    var time: Duration {
        switch self {
        case .added(_, _, _, let time, _), .started(_, let time), .startedReporting(_, let time, _),
            .ready(_, let time), .progressed(_, _, let time), .finished(_, let time):
            return time
        }
    }
}

/// The per-operation subscriptions a monitor holds: readiness while an operation waits for its
/// dependencies, progress while a progress-reporting operation executes. Most operations need
/// neither.
struct OperationTokens: Sendable {
    var ready: NSKeyValueObservation?
    var progress: NSKeyValueObservation?

    /// Every token held.
    var all: [NSKeyValueObservation] { [ready, progress].compactMap { $0 } }

    /// Appends every token held to `released` (no array made when there is none, as for most
    /// operations: this runs at every finish).
    func release(into released: inout Released) {
        if let ready { released.append(ready) }
        if let progress { released.append(progress) }
    }
}

/// Changes recorded and not yet applied, oldest first.
struct MonitorInbox {
    var changes = ChangeChunks()
    /// Changes taken from the inbox so far (to be applied): with `changes.count`, every change
    /// recorded, read under the inbox lock alone.
    var taken: UInt64 = 0
    /// Operations added unfinished and operations finished, as recorded: while more were
    /// added than finished, more changes are on their way (the background applier waits for
    /// them).
    var addedCount: UInt64 = 0
    var finishedCount: UInt64 = 0
    /// The tickets `changes` adds and finishes (`UnbuiltTickets` reads them).
    var steps = BacklogSteps()
    /// Whether a background apply is already on its way.
    var applyScheduled = false
    /// Set by `QueueMonitor.stop()`: later changes are dropped (their tokens released).
    var stopped = false
    /// What a reader left for the next recording thread to free (`Parked`).
    var parked = Parked()

    /// What to do after appending: schedule a background apply once `batch` changes wait (if
    /// none is on its way), or apply on the recording thread once `limit` wait (back-pressure).
    mutating func next(batch: Int, limit: Int) -> NextApply {
        if changes.count >= limit { return .applyHere }
        guard !applyScheduled, changes.count >= batch else { return .nothing }
        applyScheduled = true
        return .schedule
    }

    /// What to do after appending a batch of `size` added operations: apply on the adding
    /// thread if `limit` changes waited before the batch (back-pressure on a stream of adds);
    /// else, for a batch of `batch` or more, nothing: the changes its operations make next (a
    /// start, a finish) schedule the background applier, which then applies the batch with
    /// them, and the rows of those nobody could read are not built (`UnbuiltTickets`). Applied
    /// at once, the batch would be taken alone while the queue hands it to Foundation (no
    /// change is recorded meanwhile, so the applier finds the queue settled). A smaller batch
    /// is as `next` with no limit. A batch alone is never applied on the adding thread, so the
    /// queue hands its operations to Foundation without waiting for the monitor.
    mutating func nextAfterAdding(_ size: Int, batch: Int, limit: Int) -> NextApply {
        if changes.count - size >= limit { return .applyHere }
        if size >= batch { return .nothing }
        return next(batch: batch, limit: .max)
    }
}

/// What a recording thread does after appending to the inbox.
enum NextApply {
    case nothing, schedule, applyHere
}
