/// The three states of an `AsyncOperation` and the legal moves between them.
public enum OperationState: String, Sendable, CaseIterable {
    case ready, executing, finished

    /// The transition table: ready → executing → finished, and ready → finished (only for a
    /// cancelled operation, from `start()`). Nothing else, and nothing out of `finished`.
    public func canTransition(to next: OperationState) -> Bool {
        switch (self, next) {
        case (.ready, .executing), (.executing, .finished), (.ready, .finished): true
        default: false
        }
    }
}

/// How an `AsyncOperation` ended.
public enum OperationOutcome: Sendable, CustomStringConvertible {
    case succeeded
    case failed(any Error)
    /// Cancelled; `reason` says by whom or why when known.
    case cancelled(reason: String?)

    /// True for `.succeeded`.
    public var isSucceeded: Bool { if case .succeeded = self { true } else { false } }
    /// True for `.failed`.
    public var isFailed: Bool { if case .failed = self { true } else { false } }
    /// True for `.cancelled`.
    public var isCancelled: Bool { if case .cancelled = self { true } else { false } }

    public var description: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed(let error): "failed: \(error)"
        case .cancelled(let reason): reason.map { "cancelled: \($0)" } ?? "cancelled"
        }
    }
}

/// What an operation does when a dependency failed or was cancelled.
public enum DependencyFailurePolicy: Sendable {
    /// Foundation's behaviour: run anyway.
    case runAnyway
    /// Cancel this operation instead of running it.
    case cancelIfAnyDependencyFailed
}
