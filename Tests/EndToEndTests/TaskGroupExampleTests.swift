import Foundation
import Testing

/// docs/EMBEDDING.md "Task groups": `Demos/TaskGroup` runs a task group of 12 children three
/// wide on a published queue; `opsdash attach --headless` sees the children as rows with their
/// progress, never more than three executing, and SIGTERM ends the app cleanly.
@Suite struct TaskGroupExampleTests {
    @Test func attachSeesTheChildrenThreeAtATimeAndSIGTERMEndsTheAppCleanly() throws {
        let opsdash = try #require(opsdashBinaryPath())
        let binary = URL(fileURLWithPath: opsdash).deletingLastPathComponent().appendingPathComponent(
            "TaskGroupExample")
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let (app, appOut, appErr) = try startProcess(binary.path, [], environment: environment)
        let appWatchdog = ProcessWatchdog(app, seconds: 60)
        defer { appWatchdog.disarm() }
        let appErrors = LineReader(appErr.fileHandleForReading)
        let published = try #require(appErrors.firstLine { $0.contains("publishing ") }, "the app published")
        let socket = try #require(published.components(separatedBy: " on ").last)

        let (viewer, viewerOut, viewerErr) = try startProcess(
            opsdash, ["attach", "--headless"], environment: environment)
        let viewerWatchdog = ProcessWatchdog(viewer, seconds: 60)
        defer { viewerWatchdog.disarm() }
        let viewerErrors = ReadAll(viewerErr.fileHandleForReading)
        let lines = LineReader(viewerOut.fileHandleForReading)
        var names: Set<String> = []
        var executing = 0
        var mostExecuting = 0
        let progress = lines.firstLine { line in
            for photo in 1...12 where line.contains(#""op":"render photo-\#(photo).jpg""#) {
                names.insert("render photo-\(photo).jpg")
            }
            // The picture at connection, then each start and end.
            if line.contains(#""event":"snapshot_begin""#) { executing = Self.number("executing", in: line) ?? 0 }
            if line.contains(#""to":"executing""#) { executing += 1 }
            if line.contains(#""from":"executing""#) { executing -= 1 }
            mostExecuting = max(mostExecuting, executing)
            return names.count == 12 && line.contains(#""event":"progress""#) && line.contains(#""total":20"#)
        }
        #expect(names.count == 12, "every child is a row")
        #expect(progress != nil, "a child's progress of 20 tiles is shown")
        #expect(mostExecuting == 3, "three children run at once: the queue's width")

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

    /// The integer after `"key":` in a JSON line, if there is one.
    private static func number(_ key: String, in line: String) -> Int? {
        guard let range = line.range(of: #""\#(key)":"#) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
