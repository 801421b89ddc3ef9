import OpsDashUI
import Testing

/// Compares a whole rendered frame with `Snapshots/<name>.txt`, line by line, ratatui-style.
///
/// With `OPSDASH_RECORD_SNAPSHOTS=1` the frame is written to the file instead (and an issue is
/// recorded so a recording run never passes silently). A missing file fails the test.
func expectFrame(
    _ buffer: CellBuffer, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = filePath.split(separator: "/", omittingEmptySubsequences: false)
        .dropLast().joined(separator: "/")
    let path = "\(directory)/Snapshots/\(name).txt"
    let actual = buffer.lines
    if isRecordingSnapshots {
        let ok = SnapshotFile.write(actual.joined(separator: "\n") + "\n", to: path)
        Issue.record(
            "recorded snapshot \(name) (\(ok ? "written" : "WRITE FAILED")); unset OPSDASH_RECORD_SNAPSHOTS",
            sourceLocation: sourceLocation)
        return
    }
    guard let text = SnapshotFile.read(path) else {
        Issue.record(
            "missing snapshot \(path); run with OPSDASH_RECORD_SNAPSHOTS=1 to record it",
            sourceLocation: sourceLocation)
        return
    }
    var expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if expected.last == "" { expected.removeLast() }
    #expect(actual.count == expected.count, "line count", sourceLocation: sourceLocation)
    for index in 0..<max(actual.count, expected.count) {
        let got = index < actual.count ? actual[index] : "<none>"
        let want = index < expected.count ? expected[index] : "<none>"
        #expect(got == want, "\(name) line \(index)", sourceLocation: sourceLocation)
    }
}

/// Whether this run records snapshots instead of comparing them.
var isRecordingSnapshots: Bool {
    SnapshotFile.environment("OPSDASH_RECORD_SNAPSHOTS") == "1"
}
