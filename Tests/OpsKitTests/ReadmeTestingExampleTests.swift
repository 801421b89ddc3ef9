import Foundation
import OpsKitTesting
import Testing

/// docs/EMBEDDING.md "Testing your operations": the example as written there, run with the tests;
/// a test below checks the document still shows these very lines.
struct ReadmeTestingExampleTests {
    // EMBEDDING begin
    @Test func downloadFinishesAfterOneSecond() async throws {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let download = DownloadOperation(name: "a", plan: TransferPlan(totalBytes: 100, bandwidth: 100), clock: clock)
        queue.addOperation(download)
        #expect(await eventually { clock.pendingCount > 0 })  // the queue started it on its own thread
        clock.advance(by: .seconds(1))
        #expect(await eventually { download.isFinished })
        try clock.checkNoScheduledWork()
    }
    // EMBEDDING end

    @Test func theDocumentShowsTheseLines() throws {
        // Lines compared without indentation and with runs of spaces as one (the document aligns
        // its comments and does not nest the test in a suite).
        let shown = try DocumentedExample.shownLines(in: "docs/EMBEDDING.md", after: "## Testing your operations")
        let compiled = try DocumentedExample.compiledLines(between: "// EMBEDDING begin\n", and: "// EMBEDDING end")
        #expect(shown.filter { !$0.isEmpty && !$0.hasPrefix("import ") } == compiled.filter { !$0.isEmpty })
        for module in ["OpsKitTesting", "Testing"] {
            #expect(shown.contains("import \(module)"), "the docs/EMBEDDING.md example imports \(module)")
        }
    }
}
