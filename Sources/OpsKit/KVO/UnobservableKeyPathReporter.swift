#if !canImport(ObjectiveC)
import Foundation
import Synchronization

/// Where `observe(_:)` reports a key path that names no published property of its root (a
/// property the root's publisher families and `observableKeyPaths` don't list): one line on
/// stderr per key path by default, or a test's handler. The observation is still returned; it
/// delivers only `.initial`.
public enum UnobservableKeyPathReporter {
    /// Receives the description of each unobservable key path, once per key path.
    public typealias Handler = @Sendable (String) -> Void

    private static let handler = Mutex<Handler?>(nil)

    /// Replaces the reporter (nil restores the default, stderr); returns the previous one.
    @discardableResult
    public static func install(_ newHandler: Handler?) -> Handler? {
        handler.withLock { current in
            defer { current = newHandler }
            return current
        }
    }

    static func report(_ keyPath: AnyKeyPath, root: Any.Type) {
        let message =
            "observe(\(keyPath)): not an observable property of \(root), no change will be delivered; "
            + "observable are the state, progress and queue properties OpsKit publishes (a final "
            + "class's override of one is not) and those a ListsObservableKeyPaths type lists"
        if let custom = handler.withLock({ $0 }) {
            custom(message)
        } else {
            FileHandle.standardError.write(Data("OpsKit: \(message)\n".utf8))
        }
    }
}
#endif
