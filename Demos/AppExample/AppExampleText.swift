import OpsMonitor

/// What the demo says in words: the reason of its planned cancellation and its last line.
enum AppExampleText {
    /// The reason the demo gives `photo-1-6.jpg`, which it cancels itself in round 1.
    static let plannedCancelReason = "cancelled by the app (demo failure plan)"

    /// The one line printed at exit: "ran 671 operations: 660 succeeded, 0 failed, 11 cancelled".
    static func summary(_ counts: StateCounts) -> String {
        let total = counts.total
        return "ran \(total) operation\(total == 1 ? "" : "s"): \(counts.succeeded) succeeded, "
            + "\(counts.failed) failed, \(counts.cancelled) cancelled"
    }
}
