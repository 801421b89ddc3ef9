import OpsDashUI
import OpsMonitor
import Testing

/// The header's source label and link state, and refusals in the message line.
@Suite struct SourceStatusTests {
    @Test func theHeaderShowsTheSourceAndItsLinkState() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(!render(state).line(0).contains("AppExample"), "a local run shows no source")
        _ = reduce(&state, .source(SourceStatus(label: "AppExample/downloads", detail: "connected", link: .connected)))
        #expect(render(state).line(0).hasPrefix("opsdash │ AppExample/downloads connected │  RUNNING "))
        _ = reduce(
            &state,
            .source(
                SourceStatus(label: "AppExample/downloads", detail: "disconnected: app exited", link: .disconnected)))
        let buffer = render(state)
        let line = Array(buffer.line(0))
        let needle = Array("disconnected")
        let start = (0...(line.count - needle.count)).first { Array(line[$0..<($0 + needle.count)]) == needle }
        #expect(buffer.line(0).contains("disconnected: app exited"))
        guard let start else { return }
        #expect(buffer[start, 0].style.foreground == .red)
        #expect(buffer[start, 0].style.bold)
    }

    @Test func aRefusalShowsInTheMessageLineUntilTheNextKey() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(
            state.press(.character("+")) == [
                .setMaxConcurrentOperationCount(state.snapshot.maxConcurrentOperationCount + 1)
            ])
        #expect(state.pendingConcurrency != nil)
        _ = reduce(&state, .refused("refused: read-only (forbidden)"))
        #expect(state.pendingConcurrency == nil, "a refused limit is not pending")
        let footer = render(state).line(state.height - 1)
        #expect(footer.hasPrefix("refused: read-only (forbidden)"))
        _ = state.press(.down)
        #expect(state.message == nil)
        #expect(!render(state).line(state.height - 1).contains("refused"))
    }

    /// An attached app between batches of work is idle, not done: it may add more, so its clock
    /// keeps going. A replayed recording that ends is done.
    @Test func anAttachedAppsDrainedQueueIsIdleAndItsClockKeepsGoing() {
        var snapshot = Fixtures.finishedRun()
        snapshot.time = .seconds(600)
        var state = Fixtures.state(snapshot, width: 100, height: 14)
        _ = reduce(&state, .source(SourceStatus(label: "AppExample/images", detail: "connected", link: .connected)))
        let live = render(state).line(0)
        #expect(live.contains(" IDLE "), "\(live)")
        #expect(!live.contains("DONE"))
        #expect(live.hasSuffix("app time 10:00"), "the clock is the app's: \(live)")
        _ = reduce(
            &state, .source(SourceStatus(label: "run.jsonl", detail: "replay", link: .connected, isReplay: true)))
        let replay = render(state).line(0)
        #expect(replay.contains(" DONE "), "\(replay)")
        #expect(replay.hasSuffix("elapsed 0:42"), "\(replay)")
    }

    /// A title too long for the width is cut one column short of the clock, never run into it.
    @Test func aLongTitleStopsShortOfTheClock() {
        var snapshot = Fixtures.finishedRun()
        snapshot.time = .seconds(62)
        var state = Fixtures.state(snapshot, width: 82, height: 14)
        _ = reduce(
            &state,
            .source(SourceStatus(label: "AppExample/images[29838]", detail: "connected (control)", link: .connected)))
        let line = render(state).line(0)
        #expect(line.hasSuffix(" app time 1:02"), "\(line)")
        #expect(line.contains("connected (control)"))
    }
}
