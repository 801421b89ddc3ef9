import OpsDashUI
import OpsMonitor
import Testing

/// While the source is a replay, the footer and the `?` help list the replay keys.
@Suite struct ReplayKeyHintTests {
    @Test func aReplayShowsItsKeysInTheFooterAndTheHelp() {
        var state = Fixtures.state(Fixtures.midRun())
        let footer = render(state).line(state.height - 1)
        #expect(!footer.contains("step"), "a local run shows no replay keys: \(footer)")
        _ = reduce(
            &state,
            .source(SourceStatus(label: "REPLAY q", detail: "0:01 / 0:10 ×1 playing", link: .connected, isReplay: true))
        )
        let replayFooter = render(state).line(state.height - 1)
        #expect(replayFooter.hasPrefix("q quit ? help space play/pause . step"), "\(replayFooter)")
        #expect(!replayFooter.contains("cancel"), "a recording cannot be changed")
        _ = state.press(.character("?"))
        #expect(state.showHelp)
        var help = ""
        for _ in 0..<20 {
            let buffer = render(state)
            help += (0..<state.height).map { buffer.line($0) }.joined(separator: "\n")
            _ = state.press(.pageDown)
        }
        #expect(help.contains("Replay"), "\(help)")
        #expect(help.contains("step to the next event"))
        #expect(help.contains("seek back / forward 10 s"))
        #expect(help.contains("play slower / faster"))
        #expect(help.contains("jump to the start / the end of the recording"))
    }
}
