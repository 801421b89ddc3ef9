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
}
