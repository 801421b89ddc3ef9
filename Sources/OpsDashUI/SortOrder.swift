/// The order the table lists operations in; `s` cycles through them.
public enum SortOrder: String, Sendable, Equatable, CaseIterable {
    case id, state, progress, rate

    /// The next order in the `s` cycle: id → state → progress → rate → id.
    public var next: SortOrder {
        switch self {
        case .id: .state
        case .state: .progress
        case .progress: .rate
        case .rate: .id
        }
    }
}
