import Foundation
import Logging
import OpsKit
import OpsKitTesting
import OpsMonitor
import OpsKitPublisher

/// A queue, its monitor and a publisher in a private directory.
package final class Published {
    package let directory: String
    package let queue = ObservableOperationQueue()
    package let monitor: QueueMonitor
    package let publisher: QueuePublisher

    package init(
        allowControl: Bool = false, tcp: Bool = false, logger: Logger = Logger(label: "opsdash.publisher"),
        configure: (inout QueuePublisher.Options) -> Void = { _ in }
    ) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-pub-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        directory = root + "/opsdash"
        queue.isSuspended = true
        monitor = QueueMonitor(queue: queue, clock: ManualClock())
        var options = QueuePublisher.Options()
        options.app = "tests"
        options.directory = directory
        options.allowControl = allowControl
        options.pumpInterval = .milliseconds(5)
        if tcp {
            options.tcp = try .init(
                port: 0, readTokenFile: root + "/read.token", controlTokenFile: root + "/control.token")
        }
        configure(&options)
        publisher = QueuePublisher(monitor: monitor, name: "work", options: options, logger: logger)
    }

    package func add(_ count: Int) {
        queue.addOperations((0..<count).map { ClosureOperation(name: "c\($0)") {} }, waitUntilFinished: false)
    }

    deinit {
        publisher.stop()
        queue.isSuspended = false
        try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
    }
}
