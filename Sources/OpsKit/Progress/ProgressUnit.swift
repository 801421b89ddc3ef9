/// What an operation's progress counts: bytes (shown as KB/MB, rates as MB/s) or items (shown
/// as plain counts, e.g. 3/10).
public enum ProgressUnit: String, Sendable, Codable, CaseIterable {
    /// Bytes moved or processed.
    case bytes
    /// Things done: files, pages, rows, steps.
    case items
}
