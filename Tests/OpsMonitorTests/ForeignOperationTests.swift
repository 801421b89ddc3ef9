import Dispatch
import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor
@testable import OpsWire

/// An app's synchronous operation: all its work in `main()`, nothing from OpsKit.
final class ResizeOperation: Operation, @unchecked Sendable {
    let gate: DispatchSemaphore?
    init(gate: DispatchSemaphore? = nil) {
        self.gate = gate
        super.init()
    }
    override func main() { gate?.wait() }
}

/// A generic synchronous operation (its default name leaves the generic arguments out).
final class ConvertOperation<Input>: Operation, @unchecked Sendable {
    override func main() {}
}

/// Operations the app wrote without OpsKit (`BlockOperation`, `main()` subclasses) show their
/// state, name and dependencies.
@Suite(.ownThread) struct ForeignOperationTests {
    @Test func unnamedOperationsAreNamedAfterTheirClass() {
        #expect(OperationClassName.unqualified("BlockOperation") == "BlockOperation")
        #expect(OperationClassName.unqualified("App.Outer.ResizeOperation") == "ResizeOperation")
        #expect(
            OperationClassName.unqualified("ConvertOperation<Swift.Dictionary<Swift.String, Swift.Int>>")
                == "ConvertOperation")
        #expect(OperationClassName.unqualified("") == "Operation")
    }

    @Test func plainOperationsShowStateNameAndDependencies() throws {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: clock, recordEvents: true)
        let gate = DispatchSemaphore(value: 0)
        let block = BlockOperation { gate.wait() }
        let resize = ResizeOperation()
        resize.addDependency(block)
        let named = BlockOperation {}
        named.name = "thumbnails"
        let convert = ConvertOperation<[String: Int]>()
        convert.addDependency(resize)
        let cancelled = ResizeOperation()
        cancelled.cancel()
        queue.maxConcurrentOperationCount = 2
        queue.addOperations([block, resize, named, convert, cancelled], waitUntilFinished: false)

        #expect(eventually { block.isExecuting })
        clock.advance(by: .seconds(1))
        var snapshot = monitor.snapshot()
        let names = snapshot.operations.map(\.name)
        #expect(
            names == [
                "BlockOperation #1", "ResizeOperation #2", "thumbnails", "ConvertOperation #4", "ResizeOperation #5",
            ])
        #expect(snapshot.operation(id: 1)?.lifecycle == .executing, "seen running")
        #expect(snapshot.operation(id: 1)?.startedAt == .seconds(1))
        #expect(snapshot.operation(id: 2)?.lifecycle == .waiting)
        #expect(snapshot.operation(id: 2)?.dependencies == [1] && snapshot.operation(id: 4)?.dependencies == [2])

        gate.signal()
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        snapshot = monitor.snapshot()
        #expect(snapshot.operations.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .succeeded, .cancelled])

        var encoder = JSONLinesEncoder()
        var output = ""
        for event in monitor.drainEvents() { encoder.encode(event, into: &output) }
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                #"{"t":0.000,"event":"added","id":1,"op":"BlockOperation #1","kind":"other","unit":"bytes","total":0,"after":[]}"#
            ))
        #expect(lines.contains { $0.contains(#""id":1,"op":"BlockOperation #1","from":"ready","to":"executing""#) })
    }
}
