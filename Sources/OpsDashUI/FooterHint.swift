/// A key's short hint in the footer ("q quit"); hints show by `rank`, lowest first, whole
/// pairs only, as many as fit.
struct FooterHint: Sendable {
    let rank: Int
    let label: KeyLabel
    /// The word after the key; it may follow the state ("pause" / "resume"), as far as
    /// `Context` tells it.
    let word: @Sendable (Context) -> String

    /// What of the dashboard's state a hint's word may follow. The words read nothing else,
    /// so hints drawn for an equal context (in the same glyphs) are the same.
    struct Context: Sendable, Equatable {
        /// Whether the picture's queue is paused: `p` resumes it.
        var isSuspended: Bool
        /// The table's order, which `s` names.
        var sort: SortOrder
        /// Whether the dashboard was opened from the fleet list: `q` goes back to it.
        var openedFromFleet: Bool

        /// The context of `state`.
        init(_ state: borrowing DashboardState) {
            isSuspended = state.snapshot.isSuspended
            sort = state.sort
            openedFromFleet = state.openedFromFleet
        }
    }

    init(rank: Int, _ label: KeyLabel, _ word: @escaping @Sendable (Context) -> String) {
        self.rank = rank
        self.label = label
        self.word = word
    }

    init(rank: Int, _ label: KeyLabel, _ word: String) {
        self.init(rank: rank, label) { _ in word }
    }
}
