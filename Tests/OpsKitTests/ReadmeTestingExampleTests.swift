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
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/EMBEDDING.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let section = try #require(document.range(of: "## Testing your operations"))
        let block = try #require(document[section.upperBound...].range(of: "```swift\n"))
        let end = try #require(document[block.upperBound...].range(of: "```"))
        // Lines compared without indentation and with runs of spaces as one (the document aligns
        // its comments and does not nest the test in a suite).
        func normalized(_ line: Substring) -> String {
            line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        let shown = document[block.upperBound..<end.lowerBound].split(separator: "\n").map(normalized)
        let example = try #require(source.range(of: "// EMBEDDING begin\n"))
        let exampleEnd = try #require(source.range(of: "// EMBEDDING end"))
        let compiled = source[example.upperBound..<exampleEnd.lowerBound].split(separator: "\n").map(normalized)
            .filter { !$0.isEmpty }
        #expect(shown.filter { !$0.isEmpty && !$0.hasPrefix("import ") } == compiled)
        for module in ["OpsKitTesting", "Testing"] {
            #expect(shown.contains("import \(module)"), "the docs/EMBEDDING.md example imports \(module)")
        }
    }
}
