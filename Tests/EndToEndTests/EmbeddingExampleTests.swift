import Foundation
import Testing

/// docs/EMBEDDING.md "Adding OpsDash to the app you have": `Demos/Embedding`, an OperationQueue app with OpsDash
/// added, publishes its three operations (the `ProgressReporting` download with its bytes and
/// total) to `opsdash attach --headless`, and SIGTERM ends it cleanly.
@Suite struct EmbeddingExampleTests {
    @Test func attachSeesTheThreeOperationsAndSIGTERMEndsTheAppCleanly() throws {
        let opsdash = try #require(opsdashBinaryPath())
        let binary = URL(fileURLWithPath: opsdash).deletingLastPathComponent().appendingPathComponent(
            "EmbeddingExample")
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let (app, appOut, appErr) = try startProcess(binary.path, [], environment: environment)
        let appWatchdog = ProcessWatchdog(app, seconds: 60)
        defer { appWatchdog.disarm() }
        // The publisher logs "publishing embedding…/work on PATH" once the socket is there.
        let appErrors = LineReader(appErr.fileHandleForReading)
        let published = try #require(appErrors.firstLine { $0.contains("publishing ") }, "the app published")
        let socket = try #require(published.components(separatedBy: " on ").last)
        #expect(FileManager.default.fileExists(atPath: socket))

        let (viewer, viewerOut, viewerErr) = try startProcess(
            opsdash, ["attach", "--headless"], environment: environment)
        let viewerWatchdog = ProcessWatchdog(viewer, seconds: 60)
        defer { viewerWatchdog.disarm() }
        let viewerErrors = ReadAll(viewerErr.fileHandleForReading)
        let lines = LineReader(viewerOut.fileHandleForReading)
        var names: Set<String> = []
        let progress = lines.firstLine { line in
            for name in ["fetch", "warm-cache", "notify"] where line.contains(#""op":"\#(name)""#) {
                names.insert(name)
            }
            return names.count == 3 && line.contains(#""op":"fetch""#) && line.contains(#""total":4000000"#)
                && line.contains(#""bytes":"#) && !line.contains(#""bytes":0,"#)
        }
        #expect(names == ["fetch", "warm-cache", "notify"], "every operation is shown")
        #expect(progress != nil, "the ProgressReporting download shows its bytes of 4000000")

        kill(app.processIdentifier, SIGTERM)
        app.waitUntilExit()
        #expect(app.terminationReason == .exit, "not ended by SIGTERM's default action")
        #expect(app.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
        viewer.waitUntilExit()
        let viewerStderr = String(decoding: viewerErrors.wait(), as: UTF8.self)
        #expect(viewerStderr.isEmpty, "the viewer got the bye, not a lost connection: \(viewerStderr)")
        _ = (appOut, lines.rest())
    }
}

/// docs/EMBEDDING.md shows each demo program whole, as it is.
@Suite struct EmbeddingExampleReadmeTests {
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
