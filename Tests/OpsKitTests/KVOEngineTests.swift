#if !canImport(ObjectiveC)
import Foundation
import Synchronization
import OpsKitTesting
import Testing
@testable import OpsKit

/// Elements of `Meter.parts`; published as `Part`, observed as `[Part]` or as `[Component]`.
class Component: @unchecked Sendable {}
final class Part: Component, @unchecked Sendable {}

/// A small publisher declared the documented way, with key paths whose observed type differs
/// from the published one (`optionalLevel`, `components`) to reach the type-erased fallback.
final class Meter: KeyValueObservingPublisher, ListsObservableKeyPaths, Sendable {
    let keyValueObservers = KeyValueObserverRegistry()
    let _level = ObservedProperty("level", 0)
    var level: Int { _level.value }
    var optionalLevel: Int? { level }
    var parts: [Part] { [] }
    var components: [Component] { [] }
    static var observableKeyPaths: [AnyKeyPath: String] {
        [
            \Meter.level: "level", \Meter.optionalLevel: "level",
            \Meter.parts: "parts", \Meter.components: "parts",
        ]
    }

    func setLevel(_ value: Int) { _level.set(value, publishingOn: self) }
    func insert(_ part: Part, at index: Int) {
        keyValueObservers.didChangeElements(
            "parts", kind: .insertion, elements: [part], indexes: IndexSet(integer: index), owner: self)
    }
}

@Suite(.ownThread) struct KVOEngineTests {
    @Test func aValueObservedAsAnotherTypeArrivesThroughTheFallback() {
        let meter = Meter()
        let recorder = Recorder()
        let typed = meter.observe(\.level, options: [.old, .new]) { _, c in
            recorder.add("typed \(c.oldValue.map(String.init) ?? "-")→\(c.newValue.map(String.init) ?? "-")")
        }
        let optional = meter.observe(\.optionalLevel, options: [.old, .new]) { _, c in
            // Int published, Int? observed: the value must still arrive (as .some).
            recorder.add("optional \(String(describing: c.oldValue))→\(String(describing: c.newValue))")
        }
        meter.setLevel(7)
        #expect(recorder.all == ["typed 0→7", "optional Optional(Optional(0))→Optional(Optional(7))"])
        _ = (typed, optional)
    }

    @Test func toManyElementsReachObserversOfTheExactAndOfABroaderElementType() {
        let meter = Meter()
        let part = Part()
        let recorder = Recorder()
        let exact = meter.observe(\.parts, options: [.new]) { _, c in
            recorder.add(
                "parts \(c.kind) \(c.newValue?.count ?? -1) same=\(c.newValue?.first === part) at \(Array(c.indexes ?? []))"
            )
        }
        let broad = meter.observe(\.components, options: [.new]) { _, c in
            recorder.add("components \(c.kind) \(c.newValue?.count ?? -1) same=\(c.newValue?.first === part)")
        }
        meter.insert(part, at: 3)
        #expect(recorder.all == ["parts insertion 1 same=true at [3]", "components insertion 1 same=true"])
        _ = (exact, broad)
    }

    @Test func observersAreCalledInRegistrationOrderAfterTheFirstOneLeaves() {
        let meter = Meter()
        let recorder = Recorder()
        var tokens = (0..<5).map { index in
            meter.observe(\.level, options: [.new]) { _, _ in recorder.add("o\(index)") }
        }
        tokens[0].invalidate()  // the inline first slot is refilled from the others, in order
        tokens[2].invalidate()
        tokens.append(meter.observe(\.level, options: [.new]) { _, _ in recorder.add("o5") })
        meter.setLevel(1)
        #expect(recorder.all == ["o1", "o3", "o4", "o5"])
        _ = tokens
    }

    @Test func aHandlerCanInvalidateItsOwnTokenDuringDelivery() {
        let meter = Meter()
        let recorder = Recorder()
        let slot = OpsMutex<NSKeyValueObservation?>(nil)
        let token = meter.observe(\.level, options: [.new]) { _, c in
            recorder.add("got \(c.newValue ?? -1)")
            slot.withLock { $0 }?.invalidate()
        }
        slot.withLock { $0 = token }
        meter.setLevel(1)
        meter.setLevel(2)
        #expect(recorder.all == ["got 1"])
        #expect(!meter.keyValueObservers.hasObservers)
    }

    @Test func anObserverInvalidatedByAnEarlierHandlerMissesTheChangeUnderWay() {
        let meter = Meter()
        let recorder = Recorder()
        let later = OpsMutex<NSKeyValueObservation?>(nil)
        let first = meter.observe(\.level, options: [.new]) { _, _ in
            recorder.add("first")
            later.withLock { $0 }?.invalidate()
        }
        later.withLock { $0 = meter.observe(\.level, options: [.new]) { _, _ in recorder.add("later") } }
        meter.setLevel(1)
        #expect(recorder.all == ["first"])
        _ = first
    }

    @Test func aHandlerCanRegisterAnotherObserverDuringDelivery() {
        let meter = Meter()
        let recorder = Recorder()
        let added = OpsMutex<[NSKeyValueObservation]>([])
        let token = meter.observe(\.level, options: [.new]) { meter, c in
            recorder.add("outer \(c.newValue ?? -1)")
            guard c.newValue == 1 else { return }
            let inner = meter.observe(\.level, options: [.initial, .new]) { _, c in
                recorder.add("inner \(c.newValue ?? -1)")
            }
            added.withLock { $0.append(inner) }
        }
        meter.setLevel(1)
        meter.setLevel(2)
        // The new observer gets its initial value at once, not the change under way, then the next.
        #expect(recorder.all == ["outer 1", "inner 1", "outer 2", "inner 2"])
        _ = token
    }

    @Test func thePriorPassFollowsTheObserversThatAskedForIt() {
        let meter = Meter()
        let registry = meter.keyValueObservers
        let recorder = Recorder()
        let plain = meter.observe(\.level, options: [.new]) { _, c in recorder.add("plain \(c.isPrior)") }
        #expect(!registry.hasPriorObservers)
        let prior1 = meter.observe(\.level, options: [.old, .prior]) { _, c in
            recorder.add("p1 prior=\(c.isPrior) old=\(c.oldValue ?? -1)")
        }
        let prior2 = meter.observe(\.level, options: [.prior]) { _, c in recorder.add("p2 prior=\(c.isPrior)") }
        #expect(registry.hasPriorObservers)
        meter.setLevel(1)
        #expect(
            recorder.all == [
                "p1 prior=true old=0", "p2 prior=true",
                "plain false", "p1 prior=false old=0", "p2 prior=false",
            ])
        prior1.invalidate()
        prior1.invalidate()  // twice must not count twice
        #expect(registry.hasPriorObservers, "prior2 still wants it")
        prior2.invalidate()
        #expect(!registry.hasPriorObservers)
        #expect(registry.hasObservers)
        recorder.removeAll()
        meter.setLevel(2)
        #expect(recorder.all == ["plain false"])
        plain.invalidate()
        #expect(!registry.hasObservers)
    }

    @Test func aRegistrySharedByObjectsOfDifferentTypesStillCastsTheOwner() {
        final class Other: KeyValueObservingPublisher, ListsObservableKeyPaths, Sendable {
            let keyValueObservers: KeyValueObserverRegistry
            init(sharing registry: KeyValueObserverRegistry) { keyValueObservers = registry }
            var level: Int { 0 }
            static var observableKeyPaths: [AnyKeyPath: String] { [\Other.level: "level"] }
        }
        let meter = Meter()
        let other = Other(sharing: meter.keyValueObservers)
        let recorder = Recorder()
        let onMeter = meter.observe(\.level, options: [.new]) { m, c in
            recorder.add("meter \(m === meter) \(c.newValue ?? -1)")
        }
        let onOther = other.observe(\.level, options: [.new]) { _, _ in recorder.add("other") }
        // Published by the meter: the observer rooted at `Other` cannot take a `Meter` and is skipped.
        meter.setLevel(4)
        #expect(recorder.all == ["meter true 4"])
        _ = (onMeter, onOther)
    }

    /// The typed trampoline takes the change over (moved, not copied): each delivered value is
    /// released once the handler returns, neither leaked nor released twice.
    @Test func aDeliveredChangeKeepsNoReferenceToItsValues() {
        let meter = Meter()
        let recorder = Recorder()
        let exact = meter.observe(\.parts, options: [.new]) { _, c in
            recorder.add("parts \(c.newValue?.count ?? -1) at \(Array(c.indexes ?? []))")
        }
        weak var alone: Part?
        do {
            let part = Part()
            alone = part
            meter.insert(part, at: 1)  // one observer: the inline path
        }
        #expect(alone == nil, "the change delivered to the only observer must not outlive the handler")
        let broad = meter.observe(\.components, options: [.new]) { _, c in
            recorder.add("components \(c.newValue?.count ?? -1)")
        }
        weak var shared: Part?
        do {
            let part = Part()
            shared = part
            meter.insert(part, at: 2)  // two observers, one typed and one through `Any`
        }
        #expect(shared == nil, "the change delivered to a list must not outlive the handlers")
        #expect(recorder.all == ["parts 1 at [1]", "parts 1 at [2]", "components 1"])
        _ = (exact, broad)
    }

    @Test func releasedTokensFreeTheirEntriesAndTheRegistryEmpties() {
        let meter = Meter()
        weak var weakEntry: ObservationEntry?
        do {
            let token = meter.observe(\.level, options: [.new]) { _, _ in }
            weakEntry = token.entry
            #expect(weakEntry != nil)
            #expect(meter.keyValueObservers.isObserved("level"))
        }
        #expect(weakEntry == nil, "the registry must not keep a released observation")
        #expect(!meter.keyValueObservers.isObserved("level"))
        #expect(!meter.keyValueObservers.hasObservers)
    }

    @Test func observersOnManyThreadsEachSeeEveryChangeOnce() {
        let meter = Meter()
        let counts = OpsMutex<[Int: Int]>([:])
        let tokens = OpsMutex<[NSKeyValueObservation]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let token = meter.observe(\.level, options: [.new]) { _, _ in counts.withLock { $0[index, default: 0] += 1 }
            }
            tokens.withLock { $0.append(token) }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 0..<250 { meter.setLevel(thread * 1000 + value) }
        }
        #expect(counts.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, 1000) }))
        _ = tokens
    }

    /// A delivery reads the observer list without a lock or a retain; an observation removed
    /// while a delivery on another thread is inside a handler must stay alive until that
    /// delivery leaves (then it is released, by the delivery leaving).
    @Test func anObserverRemovedDuringAnotherThreadsDeliveryIsReleasedWhenThatDeliveryLeaves() {
        let meter = Meter()
        let entered = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        let delivered = DispatchSemaphore(value: 0)
        final class Payload: Sendable {}
        weak var weakPayload: Payload?
        weak var weakEntry: ObservationEntry?
        let blocking = meter.observe(\.level, options: [.new]) { _, change in
            guard change.newValue == 1 else { return }
            entered.signal()
            leave.wait()
        }
        do {
            let payload = Payload()
            weakPayload = payload
            let removed = meter.observe(\.level, options: [.new]) { _, _ in withExtendedLifetime(payload) {} }
            weakEntry = removed.entry
            DispatchQueue.global().async {
                meter.setLevel(1)
                delivered.signal()
            }
            entered.wait()  // the delivery is inside the first handler, holding the list
            removed.invalidate()
        }
        #expect(weakEntry != nil, "released while a delivery could still read it")
        #expect(weakPayload != nil)
        leave.signal()
        delivered.wait()
        #expect(weakEntry == nil, "the last delivery to leave releases what was removed meanwhile")
        #expect(weakPayload == nil)
        meter.setLevel(2)  // and the registry still works
        #expect(meter.keyValueObservers.isObserved("level"))
        blocking.invalidate()
        #expect(!meter.keyValueObservers.hasObservers)
    }

    @Test func aHandlerThatObservesInvalidatesAndPublishesOnItsOwnObjectDoesNotDeadlock() {
        let meter = Meter()
        let recorder = Recorder()
        let inner = OpsMutex<NSKeyValueObservation?>(nil)
        let parts = meter.observe(\.parts, options: [.new]) { _, c in recorder.add("part at \(Array(c.indexes ?? []))")
        }
        let outer = meter.observe(\.level, options: [.new]) { meter, change in
            guard let value = change.newValue else { return }
            if value == 1 {
                inner.withLock {
                    $0 = meter.observe(\.level, options: [.new]) { _, c in recorder.add("inner \(c.newValue ?? -1)") }
                }
            }
            if value == 3 { inner.withLock { $0 }?.invalidate() }
            meter.insert(Part(), at: value)  // a delivery nested in this one, same registry
        }
        for value in 1...4 { meter.setLevel(value) }
        // The inner observer, added during the change to 1, misses it (the delivery under way
        // reads the list it started with), and is gone from the change to 3 on.
        #expect(recorder.all == ["part at [1]", "part at [2]", "inner 2", "part at [3]", "part at [4]"])
        outer.invalidate()
        parts.invalidate()
        #expect(!meter.keyValueObservers.hasObservers)
    }

    @Test func aKeyNobodyObservesIsSkippedByItsLengthAndObservedOnesAreNot() {
        let meter = Meter()
        let registry = meter.keyValueObservers
        #expect(!registry.mayObserve("level"))
        let token = meter.observe(\.level, options: [.new]) { _, _ in }
        #expect(registry.mayObserve("level"))
        #expect(registry.mayObserve("parts"), "same length: not told apart, delivered and filtered by name")
        #expect(!registry.mayObserve("isCancelled"))
        token.invalidate()
        #expect(!registry.mayObserve("level"))
    }
}
#endif
