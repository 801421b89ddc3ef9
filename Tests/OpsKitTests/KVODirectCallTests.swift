#if !canImport(ObjectiveC)
import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

/// A non-final publisher: its own methods publish with `Dial` as the static type.
private class Dial: KeyValueObservingPublisher, ListsObservableKeyPaths, @unchecked Sendable {
    let keyValueObservers = KeyValueObserverRegistry()
    let _level = ObservedProperty("level", 0)
    var level: Int { _level.value }
    class var observableKeyPaths: [AnyKeyPath: String] { [\Dial.level: "level"] }
    func turn(to value: Int) { _level.set(value, publishingOn: self) }
}

/// Publishes the same property with `FineDial` as the static type.
private final class FineDial: Dial, @unchecked Sendable {
    override class var observableKeyPaths: [AnyKeyPath: String] { [\FineDial.level: "level"] }
    func nudge(to value: Int) { _level.set(value, publishingOn: self) }
}

/// A handler is called straight from the publisher when the publisher's static type is the root
/// it observed, and through the key's trampoline otherwise: either way it gets the object that
/// changed and the values, in order.
@Suite struct KVODirectCallTests {
    @Test func observersRootedAtTheBaseAndAtTheSubclassEachGetEveryChange() {
        let dial = FineDial()
        let asBase = Recorder()
        let asSubclass = Recorder()
        let base: Dial = dial
        let tokens = [
            base.observe(\.level, options: [.old, .new]) { owner, change in
                asBase.add("\(owner === dial) \(change.oldValue ?? -1)→\(change.newValue ?? -1)")
            },
            dial.observe(\.level, options: [.new]) { owner, change in
                asSubclass.add("\(owner === dial) \(change.oldValue ?? -1)→\(change.newValue ?? -1)")
            },
        ]
        dial.turn(to: 1)  // published as a `Dial`
        dial.nudge(to: 2)  // published as a `FineDial`
        tokens[1].invalidate()
        dial.turn(to: 3)  // one observer left, rooted at `Dial`: the direct call
        dial.nudge(to: 4)  // the same observer through the trampoline
        #expect(asBase.all == ["true 0→1", "true 1→2", "true 2→3", "true 3→4"])
        #expect(asSubclass.all == ["true -1→1", "true -1→2"])
        tokens[0].invalidate()
        #expect(!dial.keyValueObservers.hasObservers)
    }

    @Test func aSingleObserverOfTheSubclassIsCalledFromEitherStaticType() {
        let dial = FineDial()
        let seen = Recorder()
        let token = dial.observe(\.level, options: [.old, .new]) { owner, change in
            seen.add("\(owner === dial) \(change.oldValue ?? -1)→\(change.newValue ?? -1)")
        }
        dial.nudge(to: 1)
        dial.turn(to: 2)
        #expect(seen.all == ["true 0→1", "true 1→2"])
        token.invalidate()
    }
}
#endif
