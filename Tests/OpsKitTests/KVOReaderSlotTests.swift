#if !canImport(ObjectiveC)
import Dispatch
import Foundation
import OpsKitTesting
import Synchronization
import Testing
@testable import OpsKit

/// `Meter` with a registry whose deliveries always announce themselves by the count: the path
/// systems without `membarrier` (and the ThreadSanitizer build) run.
private final class CountedMeter: KeyValueObservingPublisher, ListsObservableKeyPaths, Sendable {
    let keyValueObservers = KeyValueObserverRegistry(countedReadersOnly: true)
    let _level = ObservedProperty("level", 0)
    var level: Int { _level.value }
    static var observableKeyPaths: [AnyKeyPath: String] { [\CountedMeter.level: "level"] }
    func setLevel(_ value: Int) { _level.set(value, publishingOn: self) }
}

/// What a handler keeps alive; says whether it was released while a handler still ran.
private final class Witness: Sendable {
    let released = Atomic<Bool>(false)
    let calledAfterRelease = Atomic<Int>(0)
    var isReleased: Bool { released.load(ordering: .sequentiallyConsistent) }
}

private final class WitnessedPayload: Sendable {
    let witness: Witness
    init(_ witness: Witness) { self.witness = witness }
    deinit { witness.released.store(true, ordering: .sequentiallyConsistent) }
    /// What the handler does: a little work, checking that this payload is still alive.
    func use() {
        for _ in 0..<50 where witness.released.load(ordering: .sequentiallyConsistent) {
            witness.calledAfterRelease.add(1, ordering: .relaxed)
        }
    }
}

/// Observers removed from several threads while others publish: a removed observer gets no
/// change whose publish began after its removal returned, and it is not released while a
/// delivery still runs its handler. Both reader paths: slots (where `membarrier` works) and
/// the count.
@Suite(.ownThread) struct KVOReaderSlotTests {
    /// Publishes (each value a ticket taken before the publish) on `publishers` threads while
    /// `removers` threads each add and remove observers; returns the violations seen.
    private static func churn(
        publish: @escaping @Sendable (Int) -> Void,
        observe: @escaping @Sendable (@escaping @Sendable (Int) -> Void) -> NSKeyValueObservation
    ) -> (late: Int, early: Int, released: Int) {
        let tickets = Atomic<Int>(0)
        let late = Atomic<Int>(0)
        let early = Atomic<Int>(0)
        let releasedCount = Atomic<Int>(0)
        let removersLeft = Atomic<Int>(2)
        // Threads of their own: the publishers spin until the removers are done, so they must
        // not take a pool's only threads.
        let done = DispatchSemaphore(value: 0)
        let work: @Sendable (Int) -> Void = { thread in
            defer { done.signal() }
            if thread < 2 {
                while removersLeft.load(ordering: .acquiring) > 0 {
                    publish(tickets.add(1, ordering: .sequentiallyConsistent).newValue)
                }
            } else {
                for _ in 0..<400 {
                    let witness = Witness()
                    // The last ticket taken when the removal returned (Int.max while observing).
                    let cutoff = Atomic<Int>(Int.max)
                    let seen = Atomic<Bool>(false)
                    var token: NSKeyValueObservation? = nil
                    do {
                        let payload = WitnessedPayload(witness)
                        token = observe { value in
                            payload.use()
                            seen.store(true, ordering: .relaxed)
                            if value > cutoff.load(ordering: .sequentiallyConsistent) {
                                late.add(1, ordering: .relaxed)
                            }
                        }
                    }
                    // Removed once it was delivered to (so deliveries hold the list it is in),
                    // or after a bounded wait when the publishers are starved.
                    var spins = 0
                    while !seen.load(ordering: .relaxed), spins < 100_000 { spins += 1 }
                    token?.invalidate()
                    cutoff.store(tickets.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                    token = nil
                    early.add(witness.calledAfterRelease.load(ordering: .relaxed), ordering: .relaxed)
                    if witness.isReleased { releasedCount.add(1, ordering: .relaxed) }
                }
                removersLeft.subtract(1, ordering: .releasing)
            }
        }
        for thread in 0..<4 { Thread { work(thread) }.start() }
        for _ in 0..<4 { done.wait() }
        return (late.load(ordering: .relaxed), early.load(ordering: .relaxed), releasedCount.load(ordering: .relaxed))
    }

    @Test func removedObserversGetNoLaterChangeAndOutliveDeliveriesOnSlots() {
        let meter = Meter()
        let result = Self.churn(
            publish: { meter.setLevel($0) },
            observe: { handler in meter.observe(\.level, options: [.new]) { _, change in handler(change.newValue ?? 0) }
            })
        Self.expectSafe(result, meter.keyValueObservers)
    }

    @Test func removedObserversGetNoLaterChangeAndOutliveDeliveriesOnTheCount() {
        let meter = CountedMeter()
        let result = Self.churn(
            publish: { meter.setLevel($0) },
            observe: { handler in meter.observe(\.level, options: [.new]) { _, change in handler(change.newValue ?? 0) }
            })
        Self.expectSafe(result, meter.keyValueObservers)
    }

    /// What a churn must never show, and that every removed observer is released by the time
    /// all deliveries left.
    private static func expectSafe(
        _ result: (late: Int, early: Int, released: Int), _ registry: KeyValueObserverRegistry,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            result.late == 0, "called for a publish that began after its removal returned",
            sourceLocation: sourceLocation)
        #expect(result.early == 0, "released while a delivery still ran its handler", sourceLocation: sourceLocation)
        #expect(!registry.hasObservers, sourceLocation: sourceLocation)
        #expect(allReleased(registry), sourceLocation: sourceLocation)
    }

    private static func allReleased(_ registry: KeyValueObserverRegistry) -> Bool {
        registry.writer.withLock { $0.retired.isEmpty } && !registry.hasRetired.load(ordering: .relaxed)
    }

    /// Which announcement a delivery makes: the count for a `countedReadersOnly` registry (and in
    /// the ThreadSanitizer build, and without `membarrier`), else this thread's slot.
    @Test func aDeliveryAnnouncesItselfBySlotOrByTheCount() {
        let slotted = Meter()
        let counted = CountedMeter()
        let readersInSlotted = Atomic<Int>(-1)
        let readersInCounted = Atomic<Int>(-1)
        let a = slotted.observe(\.level, options: [.new]) { meter, _ in
            readersInSlotted.store(meter.keyValueObservers.readers.load(ordering: .relaxed), ordering: .relaxed)
        }
        let b = counted.observe(\.level, options: [.new]) { meter, _ in
            readersInCounted.store(meter.keyValueObservers.readers.load(ordering: .relaxed), ordering: .relaxed)
        }
        slotted.setLevel(1)
        counted.setLevel(1)
        #expect(readersInCounted.load(ordering: .relaxed) == 1)
        #expect(readersInSlotted.load(ordering: .relaxed) == (KeyValueObserverRegistry.readerSlotsWork ? 0 : 1))
        a.invalidate()
        b.invalidate()
    }

    /// Deliveries nested deeper than a thread has slots take the count from there on, and all
    /// of them arrive; an observer removed at the deepest level is released once they all left.
    @Test func deliveriesNestedDeeperThanTheSlotsStillArriveAndRelease() {
        let meter = Meter()
        let depth = 20
        let calls = Atomic<Int>(0)
        let witness = Witness()
        let removed = OpsMutex<NSKeyValueObservation?>(nil)
        do {
            let payload = WitnessedPayload(witness)
            removed.withLock { $0 = meter.observe(\.level, options: [.new]) { _, _ in payload.use() } }
        }
        let chain = meter.observe(\.level, options: [.new]) { meter, change in
            let value = change.newValue ?? 0
            calls.add(1, ordering: .relaxed)
            if value == depth { removed.withLock { $0 }?.invalidate() }
            if value < depth { meter.setLevel(value + 1) }
        }
        meter.setLevel(1)
        #expect(calls.load(ordering: .relaxed) == depth)
        removed.withLock { $0 = nil }
        #expect(witness.isReleased, "released once the outermost delivery left")
        #expect(witness.calledAfterRelease.load(ordering: .relaxed) == 0)
        chain.invalidate()
        #expect(!meter.keyValueObservers.hasObservers)
    }
}
#endif
