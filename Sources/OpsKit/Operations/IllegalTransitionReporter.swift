import Foundation

/// Where illegal state transitions are reported: an assertion in debug builds, a line on
/// stderr in release builds, or a test's recorder. An illegal transition is never applied.
public enum IllegalTransitionReporter {
    /// Receives a description of each illegal transition attempted.
    public typealias Handler = @Sendable (String) -> Void

    private static let slot = ReportHandlerSlot()

    /// Replaces the reporter (nil restores the default); returns the previous one.
    @discardableResult
    public static func install(_ newHandler: Handler?) -> Handler? {
        slot.install(newHandler)
    }

    static func report(_ message: String) {
        if slot.deliver(message) { return }
        #if DEBUG
        assertionFailure(message)
        #else
        FileHandle.standardError.write(Data("OpsKit: \(message)\n".utf8))
        #endif
    }
}
