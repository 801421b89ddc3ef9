import Synchronization

/// The engine behind simulated downloads, uploads and processing steps: moves bytes (or work
/// units) in chunks on an injected clock, with latency, jitter, a failure plan and retries with
/// exponential backoff. The same plan and seed give the same timings and outcome.
///
/// Progress is published (`progress`, `completedBytes`, `fractionCompleted`, `bytesPerSecond`)
/// at most once per chunk. Cancellation takes effect before the next chunk moves.
open class SimulatedWorkOperation: AsyncOperation, @unchecked Sendable {
    // Locking: `engine` holds the mutable run state (a Mutex); published values live in
    // `ObservedProperty` boxes, each with its own lock.
    private struct Engine {
        var random: SeededGenerator
        var attempt = 1
        var pending: ScheduledWork?
        var retryLog: [String] = []
    }

    /// What this operation simulates.
    public let kind: SimulatedWorkKind
    /// The behaviour plan.
    public let plan: TransferPlan
    private let clock: any SimulationClock
    private let engine: Mutex<Engine>
    private let _progress: ObservedProperty<TransferProgress>
    private let _completedBytes = ObservedProperty("completedBytes", Int64(0))
    private let _bytesPerSecond = ObservedProperty("bytesPerSecond", 0.0)
    private let _fractionCompleted = ObservedProperty("fractionCompleted", 0.0)

    /// Creates a simulated operation of `kind` following `plan` on `clock`, drawing jitter from
    /// `random`.
    public init(
        kind: SimulatedWorkKind, name: String, plan: TransferPlan, clock: any SimulationClock,
        random: SeededGenerator
    ) {
        self.kind = kind
        self.plan = plan
        self.clock = clock
        self.engine = Mutex(Engine(random: random))
        self._progress = ObservedProperty("progress", TransferProgress(totalBytes: plan.totalBytes))
        super.init()
        self.name = name
    }

    /// Progress as one value (bytes, total, rate, retries).
    public var progress: TransferProgress { _progress.value }
    /// Bytes moved so far.
    public var completedBytes: Int64 { _completedBytes.value }
    /// Bytes in all.
    public var totalBytes: Int64 { plan.totalBytes }
    /// Current rate, bytes per second.
    public var bytesPerSecond: Double { _bytesPerSecond.value }
    /// 0…1.
    public var fractionCompleted: Double { _fractionCompleted.value }
    /// One line per failed attempt, oldest first.
    public var retryLog: [String] { engine.withLock { $0.retryLog } }

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

    private func schedule(after delay: Duration, _ step: @escaping @Sendable (SimulatedWorkOperation) -> Void) {
        let work = clock.schedule(after: delay) { [weak self] in
            guard let self, !self.isCancelled, !self.isFinished else { return }
            step(self)
        }
        engine.withLock { $0.pending = work }
    }

    /// Plans the next chunk: how many bytes and how long, then moves them when the time is up.
    private func moveChunk() {
        let done = progress.completedBytes
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
        let before = progress.completedBytes
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
        let percent = Int((progress.fractionCompleted * 100).rounded())
        let retry = engine.withLock { state -> Int? in
            state.retryLog.append("attempt \(error.attempt) failed at \(percent)%: \(error.message)")
            guard state.attempt <= plan.maxRetries else { return nil }
            state.attempt += 1
            return state.attempt - 1
        }
        guard let retryNumber = retry else {
            finish(error: error)
            return
        }
        var updated = progress
        updated.retries = retryNumber
        _progress.set(updated, publishingOn: self)
        let backoff = plan.retryBackoff * (1 << min(30, retryNumber - 1))
        beginAttempt(after: backoff + plan.latency)
    }

    private func publish(completed: Int64? = nil, rate: Double) {
        var updated = progress
        if let completed {
            updated.completedBytes = completed
            _completedBytes.set(completed, publishingOn: self)
            _fractionCompleted.set(updated.fractionCompleted, publishingOn: self)
        }
        if updated.bytesPerSecond != rate { _bytesPerSecond.set(rate, publishingOn: self) }
        updated.bytesPerSecond = rate
        if updated != progress { _progress.set(updated, publishingOn: self) }
    }
}

/// A simulated download.
public final class DownloadOperation: SimulatedWorkOperation, @unchecked Sendable {
    /// Creates a download following `plan` on `clock`.
    public init(name: String, plan: TransferPlan, clock: any SimulationClock, random: SeededGenerator = .init(seed: 0)) {
        super.init(kind: .download, name: name, plan: plan, clock: clock, random: random)
    }
}

/// A simulated upload.
public final class UploadOperation: SimulatedWorkOperation, @unchecked Sendable {
    /// Creates an upload following `plan` on `clock`.
    public init(name: String, plan: TransferPlan, clock: any SimulationClock, random: SeededGenerator = .init(seed: 0)) {
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
/// Marks `SimulatedWorkOperation` and subclasses: their progress properties are observable.
public protocol ObservableSimulatedWork: SimulatedWorkOperation {}
extension SimulatedWorkOperation: ObservableSimulatedWork {}

extension ObservableSimulatedWork {
    static var simulatedWorkKeyPaths: [AnyKeyPath: String] {
        [
            \Self.progress: "progress", \Self.completedBytes: "completedBytes",
            \Self.bytesPerSecond: "bytesPerSecond", \Self.fractionCompleted: "fractionCompleted",
        ]
    }
}
#endif
