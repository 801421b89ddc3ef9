#if !canImport(ObjectiveC)
import Dispatch
import Foundation
import OpsKitTesting
import Synchronization
import Testing
@testable import OpsKit

private enum Phase: Sendable, Equatable { case idle, running, done }

private struct Wide: Sendable, Equatable {
    var a: Int
    var b: Int
}

/// One publisher per value kind the word path stores, and a counter updated in place.
private final class Panel: KeyValueObservingPublisher, ListsObservableKeyPaths, Sendable {
    let keyValueObservers = KeyValueObserverRegistry()
    let _count = ObservedProperty("count", 0)
    let _rate = ObservedProperty("rate", 0.0)
    let _flag = ObservedProperty("flag", false)
    let _phase = ObservedProperty("phase", Phase.idle)
    var count: Int { _count.value }
    var rate: Double { _rate.value }
    var flag: Bool { _flag.value }
    var phase: Phase { _phase.value }
    static var observableKeyPaths: [AnyKeyPath: String] {
        [\Panel.count: "count", \Panel.rate: "rate", \Panel.flag: "flag", \Panel.phase: "phase"]
    }
}

/// Runs `body(thread)` on `threads` threads of their own and returns once all returned.
private func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for thread in 0..<threads {
        Thread {
            body(thread)
            done.signal()
        }.start()
    }
    for _ in 0..<threads { done.wait() }
}

/// `ObservedProperty` keeps a trivially copyable value of at most 8 bytes in an atomic word
/// (a set is one exchange), anything else under its lock; both keep KVO's old/new semantics.
@Suite(.ownThread) struct ObservedPropertyWordTests {
    @Test func smallTriviallyCopyableValuesTakeTheWordAndOthersTheLock() {
        #expect(ObservedProperty<Int>.isWord)
        #expect(ObservedProperty<Int8>.isWord)
        #expect(ObservedProperty<Double>.isWord)
        #expect(ObservedProperty<Bool>.isWord)
        #expect(ObservedProperty<Phase>.isWord)
        #expect(!ObservedProperty<Int?>.isWord)  // 9 bytes
        #expect(!ObservedProperty<Wide>.isWord)
        #expect(!ObservedProperty<String>.isWord)
    }

    @Test func wordValuesReadBackAndArriveAsOldAndNew() {
        let panel = Panel()
        let recorder = Recorder()
        let tokens = [
            panel.observe(\.count, options: [.old, .new]) { _, c in recorder.add("count \(c.oldValue!)→\(c.newValue!)")
            },
            panel.observe(\.rate, options: [.old, .new]) { _, c in
                recorder.add("rate \(c.oldValue!.bitPattern)→\(c.newValue!.bitPattern)")
            },
            panel.observe(\.flag, options: [.old, .new]) { _, c in recorder.add("flag \(c.oldValue!)→\(c.newValue!)") },
            panel.observe(\.phase, options: [.old, .new]) { _, c in recorder.add("phase \(c.oldValue!)→\(c.newValue!)")
            },
        ]
        panel._count.set(.min, publishingOn: panel)
        panel._count.set(-1, publishingOn: panel)
        panel._rate.set(-0.0, publishingOn: panel)
        panel._flag.set(true, publishingOn: panel)
        panel._phase.set(.done, publishingOn: panel)
        #expect(panel.count == -1)
        #expect(panel.rate.bitPattern == (-0.0 as Double).bitPattern)
        #expect(panel.flag)
        #expect(panel.phase == .done)
        #expect(
            recorder.all == [
                "count 0→\(Int.min)", "count \(Int.min)→-1", "rate 0→\((-0.0 as Double).bitPattern)",
                "flag false→true", "phase idle→done",
            ])
        for token in tokens { token.invalidate() }
    }

    /// Sets racing on two threads: each change's old value is the one its new value replaced,
    /// so the changes form one chain from the first value through every value set, each once.
    @Test func concurrentSetsReportEachReplacedValueExactlyOnce() {
        let panel = Panel()
        let perThread = 5_000
        let next = OpsMutex<[Int: Int]>([:])
        let repeated = Atomic<Int>(0)
        let token = panel.observe(\.count, options: [.old, .new]) { _, change in
            let (old, new) = (change.oldValue ?? -1, change.newValue ?? -1)
            next.withLock { if $0.updateValue(new, forKey: old) != nil { repeated.add(1, ordering: .relaxed) } }
        }
        onThreads(2) { thread in
            for i in 1...perThread { panel._count.set(thread * perThread + i, publishingOn: panel) }
        }
        token.invalidate()
        let chain = next.withLock { $0 }
        var value = 0
        var length = 0
        while let following = chain[value] {
            value = following
            length += 1
        }
        #expect(repeated.load(ordering: .relaxed) == 0, "an old value reported twice")
        #expect(chain.count == 2 * perThread)
        #expect(length == 2 * perThread, "the changes form one chain")
        #expect(value == panel.count, "the chain ends at the value stored last")
    }

    /// In-place updates racing on two threads: none is lost, and each publishes the step it made.
    @Test func concurrentUpdatesLoseNoStep() {
        let panel = Panel()
        let perThread = 5_000
        let badSteps = Atomic<Int>(0)
        let changes = Atomic<Int>(0)
        let token = panel.observe(\.count, options: [.old, .new]) { _, change in
            changes.add(1, ordering: .relaxed)
            if change.newValue != change.oldValue.map({ $0 + 1 }) { badSteps.add(1, ordering: .relaxed) }
        }
        onThreads(2) { _ in
            for _ in 0..<perThread { panel._count.update(publishingOn: panel) { $0 += 1 } }
        }
        token.invalidate()
        #expect(panel.count == 2 * perThread)
        #expect(changes.load(ordering: .relaxed) == 2 * perThread)
        #expect(badSteps.load(ordering: .relaxed) == 0)
    }

    /// Observers registered with `.initial` while another thread sets: each sees the initial
    /// value or the change that replaced it, never a gap (a change missed by both).
    @Test func anInitialObserverRegisteredDuringSetsMissesNoChange() {
        let panel = Panel()
        let last = 20_000
        let observers = 200
        let seen = OpsMutex<[[Int]]>(Array(repeating: [], count: observers))
        let tokens = OpsMutex<[NSKeyValueObservation]>([])
        onThreads(2) { thread in
            if thread == 0 {
                for value in 1...last { panel._count.set(value, publishingOn: panel) }
            } else {
                for index in 0..<observers {
                    let token = panel.observe(\.count, options: [.initial, .new]) { _, change in
                        seen.withLock { $0[index].append(change.newValue ?? -1) }
                    }
                    tokens.withLock { $0.append(token) }
                }
            }
        }
        for token in tokens.withLock({ $0 }) { token.invalidate() }
        for values in seen.withLock({ $0 }) {
            let distinct = Set(values)
            guard let low = distinct.min() else {
                Issue.record("an observer got no initial notification")
                continue
            }
            #expect(distinct == Set(low...last), "values from the first seen through \(last), no gap")
        }
    }
}
#endif
