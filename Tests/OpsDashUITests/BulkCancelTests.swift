import OpsMonitor
import Testing

@testable import OpsDashUI

/// `X` cancels what the filter lists and `x` an operation with everything depending on it, each
/// after a y/n question that says how many (unfinished ones only).
@Suite struct BulkCancelTests {
    @Test func shiftXAsksWithTheCountOfUnfinishedMatchesAndYCancelsThem() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("video")
        #expect(state.press(.enter, .character("X")).isEmpty)
        #expect(state.prompt == .cancelMatching(operationIDs: [2, 3, 7], filter: "video"))
        #expect(FooterView(state).content == .prompt("Cancel 3 operations matching 'video'? (y/n)"))
        #expect(render(state).lines[39].hasPrefix(" Cancel 3 operations matching 'video'? (y/n)"))
        #expect(state.press(.character("y")) == [.cancelMany(operationIDs: [2, 3, 7])])
        #expect(state.prompt == nil)
        #expect(state.message == "cancelling 3 operations")
    }

    @Test func anyOtherKeyThanYAnswersNo() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("video")
        state.press(.enter, .character("X"))
        #expect(state.press(.character("n")).isEmpty)
        #expect(state.prompt == nil)
    }

    @Test func shiftXWithoutAFilterSaysToSetOne() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("X")).isEmpty)
        #expect(state.prompt == nil)
        #expect(state.message == "no filter: f sets one (C cancels all)")
        state.press(.character("!"), .character("X"))
        #expect(state.prompt == nil)
        #expect(state.message == "nothing to cancel: every one of them has finished")
    }

    @Test func xAsksToCancelTheSelectedOperationAndItsDependents() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.down)
        #expect(state.selectedID == 2)
        state.press(.character("x"))
        // #2 ← #5 ← #7 ← #8 ← #12.
        #expect(state.prompt == .cancelSubtree(root: 2, operationIDs: [2, 5, 7, 8, 12]))
        #expect(FooterView(state).content == .prompt("Cancel #2 and its 4 dependents? (y/n)"))
        #expect(state.press(.character("Y")) == [.cancelMany(operationIDs: [2, 5, 7, 8, 12])])
    }

    @Test func xOnAFinishedOperationCountsOnlyItsUnfinishedDependents() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.selectedID == 1)
        state.press(.character("x"))
        #expect(state.prompt == .cancelSubtree(root: 1, operationIDs: [2, 3, 5, 6, 7, 8, 12]))
        #expect(FooterView(state).content == .prompt("Cancel 7 dependents of #1? (y/n)"))
        state.press(.escape, .end)
        #expect(state.selectedID == 12)
        state.press(.character("x"))
        #expect(FooterView(state).content == .prompt("Cancel #12? (y/n)"))
    }

    /// While the question is open, operations that finish leave the count; when none is left
    /// the question goes away.
    @Test func theCountFollowsEachPicture() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("video")
        state.press(.enter, .character("X"))
        var operations = Array(Fixtures.midRun().operations)
        operations[1].lifecycle = .finished
        operations[1].outcome = .succeeded
        _ = reduce(&state, .tick(Fixtures.snapshot(operations, version: 2)))
        #expect(state.prompt == .cancelMatching(operationIDs: [3, 7], filter: "video"))
        for index in [2, 6] {
            operations[index].lifecycle = .finished
            operations[index].outcome = .cancelled
        }
        _ = reduce(&state, .tick(Fixtures.snapshot(operations, version: 3)))
        #expect(state.prompt == nil)
    }

    /// A source that takes no commands (read-only, a recording) gets the command at once and
    /// refuses it with its reason: no question first.
    @Test func aReadOnlySourceGetsTheCommandWithoutAQuestion() {
        var state = ReadOnlyKeysTests.readOnlyState(width: 120, height: 40)
        state.press(.down)
        #expect(state.press(.character("x")) == [.cancelMany(operationIDs: [2, 5, 7, 8, 12])])
        #expect(state.prompt == nil)
    }

    @Test func aRefusedBulkCancelKeepsAPendingLimit() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("+"))
        _ = reduce(&state, .refused("refused: no", command: .cancelMany(operationIDs: [2])))
        #expect(state.pendingConcurrency == 4)
    }
}
