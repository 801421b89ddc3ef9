import Logging
import OpsKit
import Synchronization

/// A swift-log handler that keeps every record (level and message), for tests.
final class CapturedLog: Sendable {
    private let records = OpsMutex<[(level: Logger.Level, message: String)]>([])

    /// A logger whose records this log keeps (every level).
    var logger: Logger {
        var logger = Logger(label: "tests") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The records so far.
    var entries: [(level: Logger.Level, message: String)] { records.withLock { $0 } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.records.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}
