import Foundation
import OpsKit
import OpsMonitor

public enum ChainBench {
    /// Seconds to drain a chain of `length` operations, each depending on the previous one.
    public static func chain(length: Int, observable: Bool) -> Double {
        var operations: [ClosureOperation] = []
        operations.reserveCapacity(length)
        for index in 0..<length {
            let op = ClosureOperation {}
            if index > 0 { op.addDependency(operations[index - 1]) }
            operations.append(op)
        }
        let queue = observable ? ObservableOperationQueue() : OperationQueue()
        let t = time {
            queue.addOperations(operations, waitUntilFinished: false)
            queue.waitUntilAllOperationsAreFinished()
        }
        precondition(operations.allSatisfy(\.isFinished))
        return t
    }

    /// Seconds to drain `width` independent operations plus one that depends on all of them.
    public static func fanIn(width: Int, observable: Bool) -> Double {
        let sources = (0..<width).map { _ in ClosureOperation {} }
        let sink = ClosureOperation {}
        for source in sources { sink.addDependency(source) }
        let queue = observable ? ObservableOperationQueue() : OperationQueue()
        let t = time {
            queue.addOperations(sources + [sink], waitUntilFinished: false)
            queue.waitUntilAllOperationsAreFinished()
        }
        precondition(sink.isFinished)
        return t
    }
}
