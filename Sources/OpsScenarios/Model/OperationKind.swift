/// What a scenario operation does.
public enum OperationKind: String, Sendable, Equatable, CaseIterable {
    /// A simulated download.
    case download
    /// A simulated upload.
    case upload
    /// Local work of a fixed duration (e.g. an image filter).
    case process
}
