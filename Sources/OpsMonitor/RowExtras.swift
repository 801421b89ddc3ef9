/// The fields of an `OperationSnapshot` that most operations leave empty (no message, no
/// dependency, no retry), held by reference so that a row carries one reference for them.
/// Immutable: a row that changes one of them gets a new one.
final class RowExtras: Sendable {
    let message: String?
    let dependencies: [Int]
    let retryLog: [String]

    private init(message: String?, dependencies: [Int], retryLog: [String]) {
        self.message = message
        self.dependencies = dependencies
        self.retryLog = retryLog
    }

    /// The extras holding these values, or nil when all three are empty.
    static func make(message: String?, dependencies: [Int], retryLog: [String]) -> RowExtras? {
        guard message != nil || !dependencies.isEmpty || !retryLog.isEmpty else { return nil }
        return RowExtras(message: message, dependencies: dependencies, retryLog: retryLog)
    }
}
