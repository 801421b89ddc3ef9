import Foundation

#if !canImport(ObjectiveC)
/// Marks `ObservableOperationQueue` and subclasses: their queue properties are observable.
public protocol ObservableQueueState: ObservableOperationQueue {}
extension ObservableOperationQueue: ObservableQueueState {}

extension ObservableQueueState {
    static var queueKeyPaths: [AnyKeyPath: String] {
        [
            \Self.operationCount: "operationCount", \Self.allOperationCount: "operationCount",
            \Self.operations: "operations", \Self.allOperations: "operations",
            \Self.isSuspended: "isSuspended", \Self.executingOperations: "executingOperations",
            \Self.maxConcurrentOperationCount: "maxConcurrentOperationCount",
        ]
    }
}
#endif
