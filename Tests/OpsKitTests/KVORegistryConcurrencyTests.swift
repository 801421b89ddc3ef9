#if !canImport(ObjectiveC)
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import OpsKit

/// How many `RegistryPayload`s are alive.
private final class LiveCount: Sendable {
    let value = Atomic<Int>(0)
}

/// Something an observer's handler keeps alive, counted, to see when the observer is released.
private final class RegistryPayload: Sendable {
    let live: LiveCount
    init(_ live: LiveCount) {
        self.live = live
        live.value.add(1, ordering: .relaxed)
    }
    deinit { live.value.subtract(1, ordering: .relaxed) }
}

/// The registry's lock-free side under contention: deliveries read observer lists while other
/// threads register and remove observers, so lists are swapped out, retired and released under
/// deliveries that may still read them. `.ci/run` also runs this under ThreadSanitizer.
@Suite struct KVORegistryConcurrencyTests {
    @Test func observersComeAndGoWhileOtherThreadsPublish() {
        let meter = Meter()
        let live = LiveCount()
        let changes = Atomic<Int>(0)
        let steady = meter.observe(\.level, options: [.new]) { _, _ in changes.add(1, ordering: .relaxed) }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread.isMultiple(of: 2) {
                for value in 0..<2_000 { meter.setLevel(value) }
            } else {
                // A few observers at a time, so that each list is read by whole deliveries
                // (begun and finished) before a removal replaces it.
                var held: [NSKeyValueObservation] = []
                for round in 0..<1_000 {
                    let payload = RegistryPayload(live)
                    // Some with `.prior`, so publishes also take the prior pass.
                    let options: NSKeyValueObservingOptions = round.isMultiple(of: 3) ? [.new, .prior] : [.new]
                    held.append(meter.observe(\.level, options: options) { _, _ in withExtendedLifetime(payload) {} })
                    if held.count > 3 { held.removeFirst().invalidate() }
                }
                for token in held { token.invalidate() }
            }
        }
        #expect(changes.load(ordering: .relaxed) == 4_000, "the steady observer sees every change once")
        #expect(live.value.load(ordering: .relaxed) == 0, "every removed observer was released")
        #expect(meter.keyValueObservers.isObserved("level"))
        steady.invalidate()
        #expect(!meter.keyValueObservers.hasObservers)
    }
}
#endif
