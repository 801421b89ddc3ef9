import Testing

@testable import OpsDashTerminal

@Suite struct SessionCheckTests {
    @Test func pipedStdoutIsRefused() {
        let error = checkInteractive(stdoutIsTTY: false, term: "xterm-256color")
        #expect(error?.description == "stdout is not an interactive terminal; use --headless")
    }

    @Test func dumbOrMissingTermIsRefused() {
        #expect(
            checkInteractive(stdoutIsTTY: true, term: "dumb")?.description
                == "TERM 'dumb' cannot run the dashboard; use --headless")
        #expect(checkInteractive(stdoutIsTTY: true, term: nil) == .termUnset)
        #expect(checkInteractive(stdoutIsTTY: true, term: "") == .termUnset)
    }

    @Test func usableTerminalPasses() {
        #expect(checkInteractive(stdoutIsTTY: true, term: "xterm-256color") == nil)
        #expect(checkInteractive(stdoutIsTTY: true, term: "tmux-256color") == nil)
    }
}
