/// A question the dashboard is waiting for the operator to answer.
public enum Prompt: Sendable, Equatable {
    /// "Cancel all N unfinished operations? (y/n)"; `count` follows each snapshot.
    case cancelAll(count: Int)
}
