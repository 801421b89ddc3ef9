import OpsDashUI
import OpsMonitor
import Testing

/// A replay's header: position, speed and play state in the terminal's glyphs, never cut at 60
/// columns or more; and the `?` help, which leaves out the live meanings of the replay's keys.
@Suite struct ReplayHeaderTests {
    static func replaying(
        _ state: Playback.State = .playing, width: Int = 80, glyphs: GlyphSet = .unicode,
        position: Duration = .seconds(5), length: Duration = .seconds(23), speed: Double = 1
    ) -> DashboardState {
        var dashboard = Fixtures.state(Fixtures.midRun(), width: width, glyphs: glyphs)
        let playback = Playback(position: position, length: length, speed: speed, state: state)
        _ = reduce(
            &dashboard,
            .source(
                SourceStatus(
                    label: "REPLAY pipeline 2026-11-24T06:51:46Z", detail: "", link: .connected, playback: playback)))
        return dashboard
    }

    @Test func theSpeedIsAsciiWhenTheTerminalIs() {
        let ascii = render(Self.replaying(glyphs: .ascii)).lines[0]
        #expect(ascii.contains("0:05 / 0:23 x1 playing"), "\(ascii)")
        #expect(render(Self.replaying(glyphs: .ascii, speed: 2.5)).lines[0].contains("0:05 / 0:23 x2.5 playing"))
        #expect(render(Self.replaying()).lines[0].contains("0:05 / 0:23 ×1 playing"))
    }

    @Test(arguments: [60, 70, 80, 100])
    func thePlayStateIsNeverCutFromSixtyColumns(width: Int) {
        for state in [Playback.State.playing, .paused, .end] {
            for glyphs in [GlyphSet.unicode, .ascii] {
                let long = Self.replaying(
                    state, width: width, glyphs: glyphs, position: .seconds(3723), length: .seconds(7200),
                    speed: 10_000)
                let line = render(long).lines[0]
                #expect(line.contains("1:02:03 / 2:00:00 \(glyphs == .ascii ? "x" : "×")10000 \(state)"), "\(line)")
            }
        }
        let wide = render(Self.replaying(width: 120)).lines[0]
        #expect(wide.contains("REPLAY pipeline 2026-11-24T06:51:46Z 0:05 / 0:23 ×1 playing"), "\(wide)")
    }

    @Test func theHelpLeavesOutTheLiveMeaningsOfTheReplayKeys() {
        let live = Fixtures.state(Fixtures.midRun())
        #expect(Self.helpText(live).contains("first / last operation"))
        #expect(Self.helpText(live).contains("pause / resume the queue"))
        let replay = Self.helpText(Self.replaying(width: 120))
        #expect(!replay.contains("first / last operation"), "Home/End jump in the recording")
        #expect(!replay.contains("pause / resume the queue"), "space and p pause the replay")
        #expect(replay.contains("jump to the start / the end of the recording"))
        #expect(replay.contains("pause / play"))
    }

    /// Every line of the `?` help, paged through.
    static func helpText(_ state: DashboardState) -> String {
        var state = state
        _ = state.press(.character("?"))
        var help = ""
        for _ in 0..<20 {
            let buffer = render(state)
            help += (0..<state.height).map { buffer.line($0) }.joined(separator: "\n")
            _ = state.press(.pageDown)
        }
        return help
    }
}
