/// What an operation does, for display (the dashboard's kind column: ↓ download, ↑ upload,
/// ⚙ process, · other) and the headless `added` line's `kind`.
public enum OperationKind: String, Sendable, Codable, CaseIterable {
    /// Moves data in (a download).
    case download
    /// Moves data out (an upload).
    case upload
    /// Local work (e.g. an image filter).
    case process
    /// Anything else; what an operation that reports no progress is shown as.
    case other
}
