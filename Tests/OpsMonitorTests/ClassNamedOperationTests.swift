import Foundation
import OpsKit
import Testing
@testable import OpsMonitor
@testable import OpsWire

/// An unnamed operation's name is kept as its class's shared prefix and built only when read:
/// it reads, compares, logs and encodes exactly as the same name given whole.
@Suite struct ClassNamedOperationTests {
    private func classNamed(id: Int) -> OperationSnapshot {
        var op = OperationSnapshot(id: id, name: "")
        op.nameByClass(prefix: "BlockOperation #")
        return op
    }

    @Test func aClassNamedOperationReadsAsItsClassAndID() {
        let op = classNamed(id: 17)
        #expect(op.name == "BlockOperation #17")
        #expect(op.explicitName == "BlockOperation #17")
        #expect(op.storedName == "BlockOperation #")
    }

    @Test func itEqualsTheSameNameGivenWholeAndNoOther() {
        #expect(classNamed(id: 17) == OperationSnapshot(id: 17, name: "BlockOperation #17"))
        #expect(OperationSnapshot(id: 17, name: "BlockOperation #17") == classNamed(id: 17))
        #expect(classNamed(id: 17) != OperationSnapshot(id: 17, name: "BlockOperation #18"))
        #expect(classNamed(id: 17) != OperationSnapshot(id: 17, name: "BlockOperation #"))
        var renamed = classNamed(id: 17)
        renamed.name = "thumbnails"
        #expect(renamed == OperationSnapshot(id: 17, name: "thumbnails"))
        #expect(!renamed.nameAddsID)
    }

    @Test func itsLogEntriesReadAndCompareAsTheWholeName() {
        let lazy = LogEntry(
            time: .seconds(1), operationID: 17, name: "BlockOperation #", nameAddsID: true, from: .ready,
            to: .executing, outcome: nil, message: nil)
        let whole = LogEntry(
            time: .seconds(1), operationID: 17, name: "BlockOperation #17", from: .ready, to: .executing,
            outcome: nil, message: nil)
        #expect(lazy.stateChange?.name == "BlockOperation #17")
        #expect(lazy.stateParts?.name == "BlockOperation #17")
        #expect(lazy.text == whole.text)
        #expect(lazy == whole)
        let other = LogEntry(
            time: .seconds(1), operationID: 17, name: "BlockOperation #18", from: .ready, to: .executing,
            outcome: nil, message: nil)
        #expect(lazy != other)
    }

    @Test func aStoreKeepsThePrefixAndEncodesTheWholeName() {
        var store = MonitorStore()
        store.recordsEvents = true
        store.insert(
            id: 1, name: "BlockOperation #", nameAddsID: true, kind: .other, lifecycle: .ready, totalBytes: 0,
            dependencies: [], time: .zero)
        store.transition(1, to: .executing, time: .seconds(1))
        let snapshot = store.snapshot(time: .seconds(1))
        #expect(snapshot.operations[0].name == "BlockOperation #1")
        #expect(snapshot.log.last?.stateChange?.name == "BlockOperation #1")
        let keyframe = KeyframeEncoder.lines(snapshot, seq: 1)
        #expect(keyframe.contains(#""op":"BlockOperation #1""#))
        let added = store.drainEvents().compactMap { event -> String? in
            if case .added(_, _, let name, _, _, _, _) = event { return name }
            return nil
        }
        #expect(added == ["BlockOperation #1"])
    }
}
