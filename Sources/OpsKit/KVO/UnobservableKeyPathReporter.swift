#if !canImport(ObjectiveC)
import Foundation

/// Where `observe(_:)` reports a key path that names no published property of its root (a
/// property the root's publisher families and `observableKeyPaths` don't list): one line on
/// stderr per key path by default, or a test's handler. The observation is still returned; it
/// delivers only `.initial`.
public enum UnobservableKeyPathReporter {
    /// Receives the description of each unobservable key path, once per key path.
    public typealias Handler = @Sendable (String) -> Void

    private static let slot = ReportHandlerSlot()

    /// Replaces the reporter (nil restores the default, stderr); returns the previous one.
    @discardableResult
    public static func install(_ newHandler: Handler?) -> Handler? {
        slot.install(newHandler)
    }

    static func report(_ keyPath: AnyKeyPath, root: Any.Type) {
        let message =
            "observe(\(keyPath)): not an observable property of \(root), no change will be delivered; "
            + "observable are the state, progress and queue properties OpsKit publishes (a final "
            + "class's override of one is not) and those a ListsObservableKeyPaths type lists"
        if !slot.deliver(message) {
            FileHandle.standardError.write(Data("OpsKit: \(message)\n".utf8))
        }
    }
}
#endif
