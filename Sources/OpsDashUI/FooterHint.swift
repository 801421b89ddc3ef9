/// A key's short hint in the footer ("q quit"); hints show by `rank`, lowest first, whole
/// pairs only, as many as fit.
struct FooterHint: Sendable {
    let rank: Int
    let label: KeyLabel
    /// The word after the key; it may follow the state ("pause" / "resume").
    let word: @Sendable (DashboardState) -> String

    init(rank: Int, _ label: KeyLabel, _ word: @escaping @Sendable (DashboardState) -> String) {
        self.rank = rank
        self.label = label
        self.word = word
    }

    init(rank: Int, _ label: KeyLabel, _ word: String) {
        self.init(rank: rank, label) { _ in word }
    }
}
