import Foundation
import OpsKitTesting
import Testing

/// docs/EMBEDDING.md "Adding OpsDash to the app you have": `Demos/Embedding`, an OperationQueue app with OpsDash
/// added, publishes its three operations (the `ProgressReporting` download with its bytes and
/// total) to `opsdash attach --headless`, and SIGTERM ends it cleanly.
@Suite(.ownThread) struct EmbeddingExampleTests {
    @Test func attachSeesTheThreeOperationsAndSIGTERMEndsTheAppCleanly() throws {
        let demo = try AttachedDemo("EmbeddingExample")
        #expect(FileManager.default.fileExists(atPath: demo.socket))
        var names: Set<String> = []
        let progress = demo.lines.firstLine { line in
            for name in ["fetch", "warm-cache", "notify"] where line.contains(#""op":"\#(name)""#) {
                names.insert(name)
            }
            return names.count == 3 && line.contains(#""op":"fetch""#) && line.contains(#""total":4000000"#)
                && line.contains(#""bytes":"#) && !line.contains(#""bytes":0,"#)
        }
        #expect(names == ["fetch", "warm-cache", "notify"], "every operation is shown")
        #expect(progress != nil, "the ProgressReporting download shows its bytes of 4000000")
        demo.expectCleanEndOnSIGTERM()
    }
}

/// docs/EMBEDDING.md shows each demo program whole, as it is.
@Suite(.ownThread) struct EmbeddingExampleReadmeTests {
    @Test func theEmbeddingGuideShowsTheProgramAsItIs() throws {
        #expect(try guideBlock(after: "## Adding OpsDash to the app you have") == demo("Embedding"))
    }

    @Test func theTaskGroupSectionShowsTheProgramAsItIs() throws {
        #expect(try guideBlock(after: "## Task groups") == demo("TaskGroup"))
    }

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The first Swift code block after `heading` in docs/EMBEDDING.md, with its last newline.
    private func guideBlock(after heading: String) throws -> String {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/EMBEDDING.md"), encoding: .utf8)
        let section = try #require(guide.range(of: heading))
        let block = try #require(guide[section.upperBound...].range(of: "```swift\n"))
        let end = try #require(guide[block.upperBound...].range(of: "\n```\n"))
        return String(guide[block.upperBound..<end.lowerBound]) + "\n"
    }

    /// `Demos/<name>/main.swift`.
    private func demo(_ name: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent("Demos/\(name)/main.swift"), encoding: .utf8)
    }
}
