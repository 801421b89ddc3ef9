import Synchronization

/// The engine behind simulated downloads, uploads and processing steps: moves bytes (or work
/// units) in chunks on an injected clock, with latency, jitter, a failure plan and retries with
/// exponential backoff. The same plan and seed give the same timings and outcome.
///
/// Each step (latency, chunk, back-off) is due a planned time after the previous step was
/// due, not after its callback happened to run: a callback that runs late (a busy machine, a
/// clock sped up far) makes the next step come sooner, and the transfer ends at its start plus
/// its planned duration, plus only the last callback's lateness.
///
/// An ordinary `ProgressReportingOperation`: progress is published (`reportedProgress`, and
/// `completedBytes`, `fractionCompleted`, `bytesPerSecond` on their own) at most once per chunk;
/// a failed attempt that will be retried publishes the back-off as `retryDelay`, and the next
/// attempt's start clears it. Cancellation takes effect before the next chunk moves.
open class SimulatedWorkOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
    // Locking: `engine` holds the mutable run state (a Mutex); published values live in
    // `ObservedProperty` boxes and `progressStorage`, each with its own lock.
    private struct Engine {
        var random: SeededGenerator
        var attempt = 1
        var pending: ScheduledWork?
        /// When the step scheduled last is due on the clock; nil before the first.
        var due: Duration?
    }

    /// What this operation simulates.
    public let kind: OperationKind
    /// The behaviour plan.
    public let plan: TransferPlan
    /// Bytes (work units for `ProcessOperation`) done of `plan.totalBytes`, rate and retries.
    public let progressStorage: ProgressStorage
    private let clock: any SimulationClock
    private let engine: Mutex<Engine>
    private let _completedBytes = ObservedProperty("completedBytes", Int64(0))
    private let _bytesPerSecond = ObservedProperty("bytesPerSecond", 0.0)
    private let _fractionCompleted = ObservedProperty("fractionCompleted", 0.0)

    /// Creates a simulated operation of `kind` following `plan` on `clock`, drawing jitter from
    /// `random`.
    public init(
        kind: OperationKind, name: String, plan: TransferPlan, clock: any SimulationClock,
        random: SeededGenerator
    ) {
        self.kind = kind
        self.plan = plan
        self.clock = clock
        self.engine = Mutex(Engine(random: random))
        // A processing step counts work units, not bytes: it adds nothing to the byte totals.
        self.progressStorage = ProgressStorage(total: plan.totalBytes, unit: kind == .process ? .items : .bytes)
        super.init()
        self.name = name
    }

    /// Bytes moved so far.
    public var completedBytes: Int64 { _completedBytes.value }
    /// Bytes in all.
    public var totalBytes: Int64 { plan.totalBytes }
    /// Current rate, bytes per second.
    public var bytesPerSecond: Double { _bytesPerSecond.value }
    /// 0…1.
    public var fractionCompleted: Double { _fractionCompleted.value }
    // MARK: Running

    open override func execute() {
        beginAttempt(after: plan.latency)
    }

    open override func operationDidCancel() {
        let pending = engine.withLock { state -> ScheduledWork? in
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
        publish(rate: 0)
    }

    private func beginAttempt(after delay: Duration) {
        schedule(after: delay) { $0.moveChunk() }
    }

    /// The back-off is over: the next attempt starts (its latency first).
    private func retryStarted() {
        updateProgress { $0.retryDelay = nil }
        beginAttempt(after: plan.latency)
    }

    /// Runs `step` `delay` after the previous step was due (after now for the first).
    private func schedule(after delay: Duration, _ step: @escaping @Sendable (SimulatedWorkOperation) -> Void) {
        let now = clock.now
        let wait = engine.withLock { state -> Duration in
            let due = (state.due ?? now) + delay
            state.due = due
            return max(.zero, due - now)
        }
        let work = clock.schedule(after: wait) { [weak self] in
            guard let self, !self.isCancelled, !self.isFinished else { return }
            step(self)
        }
        engine.withLock { $0.pending = work }
    }

    /// Plans the next chunk: how many bytes and how long, then moves them when the time is up.
    private func moveChunk() {
        let done = reportedProgress.completedUnitCount
        let remaining = plan.totalBytes - done
        let bytes = min(plan.chunkBytes, max(0, remaining))
        let seconds = Double(bytes) / Double(max(1, plan.bandwidth))
        let factor = engine.withLock { state -> Double in
            guard plan.jitter > 0 else { return 1 }
            return 1 + Double.random(in: -plan.jitter...plan.jitter, using: &state.random)
        }
        let duration = Duration.seconds(max(0.000_001, seconds * factor))
        schedule(after: duration) { $0.chunkArrived(bytes: bytes, duration: duration) }
    }

    private func chunkArrived(bytes: Int64, duration: Duration) {
        let before = reportedProgress.completedUnitCount
        let attempt = engine.withLock { $0.attempt }
        if let failure = plan.failure, attemptFails(attempt, failure) {
            let threshold = Int64((Double(plan.totalBytes) * failure.atFraction).rounded(.down))
            if before + bytes >= threshold {
                let moved = max(before, min(before + bytes, threshold))
                if moved > before { publish(completed: moved, rate: Double(moved - before) / duration.seconds) }
                attemptFailed(SimulatedTransferError(message: failure.message, attempt: attempt))
                return
            }
        }
        let after = before + bytes
        publish(completed: after, rate: Double(bytes) / max(duration.seconds, 1e-9))
        if after >= plan.totalBytes {
            publish(rate: 0)
            finish()
        } else {
            moveChunk()
        }
    }

    private func attemptFails(_ attempt: Int, _ failure: FailurePlan) -> Bool {
        guard let limit = failure.failingAttempts else { return true }
        return attempt <= limit
    }

    private func attemptFailed(_ error: SimulatedTransferError) {
        publish(rate: 0)
        let retry = engine.withLock { state -> Int? in
            guard state.attempt <= plan.maxRetries else { return nil }
            state.attempt += 1
            return state.attempt - 1
        }
        guard let retryNumber = retry else {
            reportAttemptFailed(error.message, retryIn: nil)
            finish(error: error)
            return
        }
        let backoff = plan.retryBackoff * (1 << min(30, retryNumber - 1))
        reportAttemptFailed(error.message, retryIn: backoff)
        schedule(after: backoff) { $0.retryStarted() }
    }

    private func publish(completed: Int64? = nil, rate: Double) {
        if let completed {
            _completedBytes.set(completed, publishingOn: self)
            _fractionCompleted.set(
                OperationProgress(completed: completed, total: plan.totalBytes).fractionCompleted, publishingOn: self)
        }
        if bytesPerSecond != rate { _bytesPerSecond.set(rate, publishingOn: self) }
        updateProgress { progress in
            if let completed { progress.completedUnitCount = completed }
            progress.unitsPerSecond = rate
        }
    }
}

/// A simulated download.
public final class DownloadOperation: SimulatedWorkOperation, @unchecked Sendable {
    /// Creates a download following `plan` on `clock`.
    public init(name: String, plan: TransferPlan, clock: any SimulationClock, random: SeededGenerator = .init(seed: 0))
    {
        super.init(kind: .download, name: name, plan: plan, clock: clock, random: random)
    }
}

/// A simulated upload.
public final class UploadOperation: SimulatedWorkOperation, @unchecked Sendable {
    /// Creates an upload following `plan` on `clock`.
    public init(name: String, plan: TransferPlan, clock: any SimulationClock, random: SeededGenerator = .init(seed: 0))
    {
        super.init(kind: .upload, name: name, plan: plan, clock: clock, random: random)
    }
}

/// A simulated processing step (e.g. an image filter): `duration` of work in 1 ms units, ten
/// progress steps, optionally failing.
public final class ProcessOperation: SimulatedWorkOperation, @unchecked Sendable {
    /// Creates a processing step that takes `duration` on `clock`; `failure` makes it fail.
    public init(
        name: String, duration: Duration, failure: FailurePlan? = nil, clock: any SimulationClock,
        random: SeededGenerator = .init(seed: 0)
    ) {
        let units = max(1, Int64((duration.seconds * 1000).rounded()))
        let plan = TransferPlan(
            totalBytes: units, bandwidth: 1000, failure: failure, chunkBytes: max(1, units / 10))
        super.init(kind: .process, name: name, plan: plan, clock: clock, random: random)
    }
}

#if !canImport(ObjectiveC)
/// Marks `SimulatedWorkOperation` and subclasses: their per-field progress properties are
/// observable (`reportedProgress` is, as for every `ProgressReportingOperation`).
public protocol ObservableSimulatedWork: SimulatedWorkOperation {}
extension SimulatedWorkOperation: ObservableSimulatedWork {}

extension ObservableSimulatedWork {
    static var simulatedWorkKeyPaths: [AnyKeyPath: String] {
        [
            \Self.completedBytes: "completedBytes",
            \Self.bytesPerSecond: "bytesPerSecond", \Self.fractionCompleted: "fractionCompleted",
        ]
    }
}
#endif
