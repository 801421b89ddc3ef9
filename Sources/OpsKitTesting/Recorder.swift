import OpsKit
import Synchronization

/// A recording observer: a thread-safe, ordered log of lines, e.g. one per KVO change.
///
/// Observers call `add` from whatever thread notifies them; the test compares `all` with the
/// sequence it expects.
public final class Recorder: Sendable {
    /// The lines so far, in the order they were added.
    private let lines = OpsMutex<[String]>([])

    /// Creates an empty log.
    public init() {}

    /// Appends `line`.
    public func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// Forgets every line so far.
    public func removeAll() { lines.withLock { $0 = [] } }

    /// Every line so far.
    public var all: [String] { lines.withLock { $0 } }
}
