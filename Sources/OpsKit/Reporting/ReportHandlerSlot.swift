import Synchronization

/// Where one of OpsKit's reporters sends its reports when an app or a test has installed a
/// handler in place of the reporter's default (`IllegalTransitionReporter`,
/// `UnobservableKeyPathReporter`).
final class ReportHandlerSlot: Sendable {
    /// Receives the text of each report.
    typealias Handler = @Sendable (String) -> Void

    private let handler = Mutex<Handler?>(nil)

    /// Replaces the handler (nil restores the reporter's default); returns the previous one.
    func install(_ newHandler: Handler?) -> Handler? {
        handler.withLock { current in
            defer { current = newHandler }
            return current
        }
    }

    /// Hands `message` to the installed handler; false when none is installed.
    func deliver(_ message: String) -> Bool {
        guard let installed = handler.withLock({ $0 }) else { return false }
        installed(message)
        return true
    }
}
