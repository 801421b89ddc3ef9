import OpsDashUI
import OpsMonitor
import Testing

/// Cancelling one operation (c) or all of them after a y/n question (C).
@Suite struct CancelKeyTests {
    @Test func cCancelsTheSelectedUnfinishedOperation() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.down)
        #expect(state.press(.character("c")) == [.cancel(operationID: 2)])
    }

    /// Foundation finishes a cancelled ready operation only by starting it: the message says
    /// when, since until then its row still reads "ready".
    @Test func cancellingAReadyOperationSaysWhenItWillFinish() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.end, .up, .up, .up)
        #expect(state.selectedID == 9)
        #expect(state.press(.character("c")) == [.cancel(operationID: 9)])
        #expect(state.message == "cancelling #9: it finishes as cancelled when a slot frees")
        state = Fixtures.state(Fixtures.midRun(suspended: true))
        state.press(.end, .up, .up, .up)
        state.press(.character("c"))
        #expect(state.message == "cancelling #9: it finishes as cancelled once the queue resumes (p)")
        state.press(.home, .down)
        state.press(.character("c"))
        #expect(state.message == "cancelling #2", "a running one finishes as soon as its work stops")
        #expect(state.press(.character("C"), .character("y")) == [.cancelAll])
        #expect(state.message == "cancelling all: the ready one finishes as cancelled once the queue resumes (p)")
    }

    @Test func cOnAFinishedOperationDoesNothingAndSaysSo() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.selectedID == 1)
        #expect(state.press(.character("c")).isEmpty)
        #expect(state.message == "#1 already succeeded; nothing to cancel")
        #expect(render(state).lines[39].hasPrefix("#1 already succeeded; nothing to cancel"))
        state.press(.down)
        #expect(state.message == nil, "the next key clears the message")
        #expect(render(state).lines[39].hasPrefix("q quit"))
    }

    @Test func capitalCAsksAndYConfirmsCancelAll() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("C")).isEmpty)
        #expect(state.prompt == .cancelAll(count: 9))
        #expect(state.press(.character("y")) == [.cancelAll])
        #expect(state.prompt == nil)
    }

    @Test func anyOtherKeyDismissesTheCancelAllQuestion() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        #expect(state.press(.character("n")).isEmpty)
        #expect(state.prompt == nil)
        state.press(.character("C"))
        #expect(state.press(.character("q")).isEmpty, "q answers the question, it does not quit")
        #expect(state.prompt == nil)
        state.press(.character("C"))
        #expect(state.press(.escape).isEmpty)
        #expect(state.prompt == nil)
    }

    @Test func cancelAllIsNotAskedWhenEverythingFinishedAndSaysSo() {
        let done = OperationSnapshot(id: 1, name: "a", lifecycle: .finished, outcome: .succeeded)
        var state = Fixtures.state(Fixtures.snapshot([done]))
        state.press(.character("C"))
        #expect(state.prompt == nil)
        #expect(state.message == "nothing left to cancel: every operation has finished")
    }

    @Test func theCancelAllQuestionCountsLive() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        #expect(render(state).lines[39].hasPrefix(" Cancel all 9 unfinished operations? (y/n)"))
        var fewer = Fixtures.midRun(version: 2)
        var operations = Array(fewer.operations)
        operations[1].lifecycle = .finished
        operations[1].outcome = .succeeded
        fewer = Fixtures.snapshot(operations, version: 2)
        _ = reduce(&state, .tick(fewer))
        #expect(state.prompt == .cancelAll(count: 8))
        #expect(render(state).lines[39].hasPrefix(" Cancel all 8 unfinished operations? (y/n)"))
    }

    @Test func capitalCInAReplayAsksNothingAndGoesStraightToTheSourceToBeRefused() {
        var state = Fixtures.state(Fixtures.midRun())
        _ = reduce(
            &state, .source(SourceStatus(label: "REPLAY q", detail: "", link: .connected, isReplay: true)))
        #expect(state.press(.character("C")) == [.cancelAll], "the source refuses it: no y/n question first")
        #expect(state.prompt == nil)
        _ = reduce(&state, .refused("replay: a recording cannot be changed"))
        #expect(render(state).lines[39].hasPrefix("replay: a recording cannot be changed"))
    }

    @Test func capitalCOnAReadOnlyAttachAsksNothingButOnAControlAttachAsks() {
        var state = Fixtures.state(Fixtures.midRun())
        _ = reduce(
            &state,
            .source(
                SourceStatus(label: "app/q", detail: "connected (read-only)", link: .connected, acceptsCommands: false))
        )
        #expect(state.press(.character("C")) == [.cancelAll], "the source refuses it: no y/n question first")
        #expect(state.prompt == nil)
        _ = reduce(&state, .source(SourceStatus(label: "app/q", detail: "connected (control)", link: .connected)))
        #expect(state.press(.character("C")) == [])
        #expect(state.prompt == .cancelAll(count: 9), "with control, the question comes first")
    }

    @Test func theQuestionSaysOperationForOne() {
        let done = OperationSnapshot(id: 1, name: "a", lifecycle: .finished, outcome: .succeeded)
        let running = OperationSnapshot(id: 2, name: "b", lifecycle: .executing)
        var state = Fixtures.state(Fixtures.snapshot([done, running]))
        state.press(.character("C"))
        #expect(render(state).lines[39].hasPrefix(" Cancel all 1 unfinished operation? (y/n)"))
    }

    @Test func cInAReplayGoesToTheSourceToBeRefusedEvenOnAFinishedRow() {
        var state = Fixtures.state(Fixtures.midRun())
        _ = reduce(
            &state, .source(SourceStatus(label: "REPLAY q", detail: "", link: .connected, isReplay: true)))
        #expect(state.selectedID == 1, "a finished row")
        #expect(state.press(.character("c")) == [.cancel(operationID: 1)], "the source refuses it, as for any row")
    }

    @Test func cOnAReadOnlyAttachGoesToTheSourceToBeRefusedEvenOnAFinishedRow() {
        var state = Fixtures.state(Fixtures.midRun())
        _ = reduce(
            &state,
            .source(SourceStatus(label: "app/q", detail: "connected (read-only)", link: .connected, isReadOnly: true)))
        #expect(state.selectedID == 1, "a finished row")
        #expect(state.press(.character("c")) == [.cancel(operationID: 1)], "refused as read-only, not 'already'")
    }
}

/// A notice (e.g. where metrics are served) goes away when it expires, unless something else
/// was said since.
@Suite struct NoticeExpiryTests {
    @Test func anExpiredNoticeGivesTheLineBackButALaterMessageStays() {
        var state = Fixtures.state(Fixtures.midRun())
        _ = reduce(&state, .notice("metrics at http://127.0.0.1:9464/metrics"))
        #expect(state.message == "metrics at http://127.0.0.1:9464/metrics")
        _ = reduce(&state, .noticeExpired("metrics at http://127.0.0.1:9464/metrics"))
        #expect(state.message == nil)
        _ = reduce(&state, .notice("recording stopped"))
        _ = reduce(&state, .refused("read-only"))
        _ = reduce(&state, .noticeExpired("recording stopped"))
        #expect(state.message == "read-only", "a message said since the notice stays")
    }
}
