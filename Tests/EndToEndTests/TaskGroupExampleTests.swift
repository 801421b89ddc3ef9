import Foundation
import OpsKitTesting
import Testing

/// docs/EMBEDDING.md "Task groups": `Demos/TaskGroup` runs a task group of 12 children three
/// wide on a published queue; `opsdash attach --headless` sees the children as rows with their
/// progress, never more than three executing, and SIGTERM ends the app cleanly.
@Suite(.ownThread) struct TaskGroupExampleTests {
    @Test func attachSeesTheChildrenThreeAtATimeAndSIGTERMEndsTheAppCleanly() throws {
        let demo = try AttachedDemo("TaskGroupExample")
        var names: Set<String> = []
        var executing = 0
        var mostExecuting = 0
        let progress = demo.lines.firstLine { line in
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

        demo.expectCleanEndOnSIGTERM()
    }

    /// The integer after `"key":` in a JSON line, if there is one.
    private static func number(_ key: String, in line: String) -> Int? {
        guard let range = line.range(of: #""\#(key)":"#) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
