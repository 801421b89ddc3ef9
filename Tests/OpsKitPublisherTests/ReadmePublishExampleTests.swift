import Foundation
import OpsKit
@_spi(OpsDashInternals) import OpsKitPublisher
import OpsKitTesting
import OpsMonitor
import Testing

/// docs/EMBEDDING.md "Publishing a queue for `opsdash attach`": the publishing example as written
/// there, compiled and run with the tests; a test below checks the document still shows these very lines.
enum ReadmePublishExample {
    static func run() throws -> (publisher: QueuePublisher, queue: ObservableOperationQueue) {
        // README begin
        let queue = ObservableOperationQueue()  // the queue your app runs its work on
        let monitor = QueueMonitor(queue: queue, clock: LiveClock())
        var options = QueuePublisher.Options()
        options.app = "ingest"
        options.allowControl = true  // omit for read-only viewers
        let publisher = QueuePublisher(monitor: monitor, name: "uploads", options: options)
        try publisher.start()  // or run it in your ServiceGroup: it is a Service
        // README end
        return (publisher, queue)
    }
}

@Suite struct ReadmePublishExampleTests {
    @Test func theExamplePublishesAQueueAndStopsCleanly() throws {
        let (publisher, _) = try ReadmePublishExample.run()
        #expect(FileManager.default.fileExists(atPath: publisher.socketPath))
        #expect(PublishedQueue.list().contains { $0.label == "ingest/uploads" && $0.socket == publisher.socketPath })
        publisher.stop()
        #expect(!FileManager.default.fileExists(atPath: publisher.socketPath), "stop() removes the socket")
    }

    @Test func theReadmeShowsTheseLines() throws {
        // Lines compared with runs of spaces as one (the README aligns its comments).
        let shown = try DocumentedExample.shownLines(
            in: "docs/EMBEDDING.md", after: "## Publishing a queue for `opsdash attach`")
        let compiled = Set(try DocumentedExample.compiledLines(between: "// README begin", and: "// README end"))
        for line in shown where !line.isEmpty && !line.hasPrefix("import ") && !line.hasPrefix("// …") {
            #expect(compiled.contains(line), "docs/EMBEDDING.md line not in the compiled example: \(line)")
        }
        for module in ["OpsKit", "OpsKitPublisher", "OpsMonitor"] {
            #expect(shown.contains("import \(module)"), "the docs/EMBEDDING.md example imports \(module)")
        }
    }
}
