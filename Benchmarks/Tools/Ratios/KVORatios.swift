// Items 1 and 1b: KVO delivery and subscription cost.
import BenchWorkloads
import Foundation
import OpsKit
import OpsMonitor

/// 1. KVO delivery.
func kvoDelivery(_ run: RatioRun) -> [Row] {
    let (smoke, reps) = (run.smoke, run.reps)
    var rows: [Row] = []
    log("1. KVO delivery")
    let n = smoke ? 100_000 : 2_000_000
    _ = KVOBench.deliveryToOneObserver(10_000)  // warm up the key table
    let (kvo, closure) = sideBySide(reps, { KVOBench.deliveryToOneObserver(n) }, { KVOBench.directClosure(n) })
    rows.append(
        Row(
            item: "1. KVO delivery", compared: "one change → one observer ([.new]) vs direct call of a stored closure",
            a: kvo, b: closure, unit: "ns", ratio: kvo.median / closure.median,
            ratioText: String(format: "%.1f×", kvo.median / closure.median), budget: "≤ 3×",
            met: kvo.median / closure.median <= 3))
    let (kvo2, locked) = sideBySide(reps, { KVOBench.deliveryToOneObserver(n) }, { KVOBench.lockedStoreAndClosure(n) })
    rows.append(
        Row(
            item: "1. KVO delivery (fair baseline)",
            compared: "same vs Mutex store + closure call (hand-written observable property)",
            a: kvo2, b: locked, unit: "ns", ratio: kvo2.median / locked.median,
            ratioText: String(format: "%.1f×", kvo2.median / locked.median), budget: "≤ 3× (reading of the budget)",
            met: kvo2.median / locked.median <= 3))
    let (silent, store) = sideBySide(reps, { KVOBench.publishWithoutObservers(n) }, { KVOBench.lockedStore(n) })
    rows.append(
        Row(
            item: "1. KVO, no observers", compared: "publish with no observer vs Mutex store alone",
            a: silent, b: store, unit: "ns", ratio: silent.median / store.median,
            ratioText: String(format: "%.1f× (+%.1f ns)", silent.median / store.median, silent.median - store.median),
            budget: "a few ns; 0 allocations (see package-benchmark mallocCountTotal)",
            met: silent.median - store.median < 10))
    let (fast, store2) = sideBySide(reps, { KVOBench.publishWithoutObserversFastPath(n) }, { KVOBench.lockedStore(n) })
    rows.append(
        Row(
            item: "1. (no observers, fast path)",
            compared:
                "same with the no-observer check specialised in the caller (what an @inlinable fast path gives) vs Mutex store",
            a: fast, b: store2, unit: "ns", ratio: fast.median / store2.median,
            ratioText: String(format: "%.1f× (+%.1f ns)", fast.median / store2.median, fast.median - store2.median),
            budget: "—", met: nil))
    return rows
}

/// 1b. KVO subscription cost (the monitor makes several per operation).
func kvoSubscription(_ run: RatioRun) -> [Row] {
    let (smoke, reps) = (run.smoke, run.reps)
    var rows: [Row] = []
    log("1b. KVO subscription")
    let n = smoke ? 20_000 : 1_000_000
    _ = KVOBench.observeAndInvalidate(10_000)
    let pair = Stats((0..<reps).map { _ in KVOBench.observeAndInvalidate(n) })
    rows.append(
        Row(
            item: "1b. KVO subscription",
            compared: "observe(\\.value, [.new]) + invalidate(), cycling over 1000 objects: ns per pair",
            a: pair, b: nil, unit: "ns", ratio: .nan, ratioText: "—", budget: "—", met: nil))
    let live = smoke ? 10_000 : 100_000
    let bytes = Stats((0..<(smoke ? 1 : 3)).map { _ in KVOBench.bytesPerLiveSubscription(count: live) })
    rows.append(
        Row(
            item: "1b. KVO subscription memory",
            compared: "\(live) objects, one live subscription each: malloc bytes (mallinfo2) / subscription",
            a: bytes, b: nil, unit: "B", ratio: bytes.median / 120,
            ratioText: String(format: "%.2f of budget", bytes.median / 120), budget: "≤ ~120 B",
            met: bytes.median <= 120))
    return rows
}
