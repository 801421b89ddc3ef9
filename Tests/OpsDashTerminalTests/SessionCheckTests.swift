import Testing

@testable import OpsDashTerminal

@Suite struct SessionCheckTests {
    @Test func pipedStdoutIsRefused() {
        let error = checkInteractive(stdoutIsTTY: false, term: "xterm-256color")
        #expect(error?.description == "opsdash needs an interactive terminal; use --headless")
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

    @Test func signalExitCodes() {
        #expect(DashboardExit.signal(2).signalExitCode == 130)
        #expect(DashboardExit.signal(15).signalExitCode == 143)
        #expect(DashboardExit.signal(1).signalExitCode == 129)
        #expect(DashboardExit.quit.signalExitCode == nil)
    }
}
