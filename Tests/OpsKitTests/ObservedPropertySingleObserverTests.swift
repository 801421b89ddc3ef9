#if !canImport(ObjectiveC)
import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

private struct ThreeBytes: Sendable, Equatable {
    var a: UInt8
    var b: UInt8
    var c: UInt8
}

/// One property per size of word value (2, 4 and 8 bytes reinterpreted in registers, 3 and 5
/// through memory), each observed alone, so every change takes the one-observer path.
private final class Gauges: KeyValueObservingPublisher, ListsObservableKeyPaths, Sendable {
    let keyValueObservers = KeyValueObserverRegistry()
    let _short = ObservedProperty("short", Int16(0))
    let _float = ObservedProperty("float", Float(0))
    let _maybe = ObservedProperty("maybe", Int32?.none)
    let _bytes = ObservedProperty("bytes", ThreeBytes(a: 0, b: 0, c: 0))
    let _count = ObservedProperty("count", 0)
    var short: Int16 { _short.value }
    var float: Float { _float.value }
    var maybe: Int32? { _maybe.value }
    var bytes: ThreeBytes { _bytes.value }
    var count: Int { _count.value }
    static var observableKeyPaths: [AnyKeyPath: String] {
        [
            \Gauges.short: "short", \Gauges.float: "float", \Gauges.maybe: "maybe", \Gauges.bytes: "bytes",
            \Gauges.count: "count",
        ]
    }
}

/// A publisher's one observer gets the values its options ask for, of every word size, from
/// the path `ObservedProperty.set` inlines into the publisher.
@Suite(.ownThread) struct ObservedPropertySingleObserverTests {
    @Test func everyWordSizeArrivesAsOldAndNewAndReadsBack() {
        let gauges = Gauges()
        let recorder = Recorder()
        func alone(_ observe: () -> NSKeyValueObservation, _ set: () -> Void) {
            let token = observe()
            set()
            token.invalidate()
        }
        alone({
            gauges.observe(\.short, options: [.old, .new]) { _, c in recorder.add("short \(c.oldValue!)→\(c.newValue!)")
            }
        }) {
            gauges._short.set(-2, publishingOn: gauges)
        }
        alone({
            gauges.observe(\.float, options: [.old, .new]) { _, c in recorder.add("float \(c.oldValue!)→\(c.newValue!)")
            }
        }) {
            gauges._float.set(-1.5, publishingOn: gauges)
        }
        alone({
            gauges.observe(\.maybe, options: [.old, .new]) { _, c in
                recorder.add("maybe \(String(describing: c.oldValue!))→\(String(describing: c.newValue!))")
            }
        }) {
            gauges._maybe.set(-7, publishingOn: gauges)
            gauges._maybe.set(nil, publishingOn: gauges)
        }
        alone({
            gauges.observe(\.bytes, options: [.old, .new]) { _, c in
                recorder.add("bytes \(c.oldValue!.c)→\(c.newValue!.a),\(c.newValue!.b),\(c.newValue!.c)")
            }
        }) {
            gauges._bytes.set(ThreeBytes(a: 1, b: 2, c: 255), publishingOn: gauges)
        }
        #expect(gauges.short == -2)
        #expect(gauges.float == -1.5)
        #expect(gauges.maybe == nil)
        #expect(gauges.bytes == ThreeBytes(a: 1, b: 2, c: 255))
        #expect(
            recorder.all == [
                "short 0→-2", "float 0.0→-1.5", "maybe nil→Optional(-7)", "maybe Optional(-7)→nil",
                "bytes 0→1,2,255",
            ])
    }

    @Test func theOneObserverGetsExactlyTheValuesItsOptionsAskFor() {
        let gauges = Gauges()
        let recorder = Recorder()
        let cases: [(String, NSKeyValueObservingOptions)] = [
            ("new", [.new]), ("old", [.old]), ("both", [.old, .new]), ("none", []), ("initial+new", [.initial, .new]),
        ]
        for (label, options) in cases {
            let token = gauges.observe(\.count, options: options) { _, change in
                recorder.add("\(label): \(String(describing: change.oldValue)) \(String(describing: change.newValue))")
            }
            gauges._count.set(gauges.count + 1, publishingOn: gauges)
            token.invalidate()
        }
        #expect(
            recorder.all == [
                "new: nil Optional(1)", "old: Optional(1) nil", "both: Optional(2) Optional(3)", "none: nil nil",
                "initial+new: nil Optional(4)", "initial+new: nil Optional(5)",
            ])
    }
}
#endif
