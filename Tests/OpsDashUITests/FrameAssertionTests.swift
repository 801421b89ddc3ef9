import OpsDashUI
import OpsMonitor
import Testing

@Suite(.disabled(if: isRecordingSnapshots, "would write the files it checks for"))
struct FrameAssertionTests {
    @Test func aMissingSnapshotFileFailsTheTest() {
        withKnownIssue {
            expectFrame(CellBuffer(width: 3, height: 1), named: "does-not-exist")
        }
    }

    @Test func aDifferentFrameFails() {
        withKnownIssue {
            expectFrame(CellBuffer(width: 3, height: 1), named: "too-small-59x30")
        }
    }
}
