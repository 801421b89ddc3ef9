import Foundation
import OpsKitTesting
import Testing

/// The dashboard honours the user's locale (ASCII under `LANG=C`) and `NO_COLOR`, and says
/// DONE with a stopped clock once every operation has finished.
@Suite(.ownThread) struct LocaleAndColorEndToEndTests {
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theCLocaleGetsOnlyASCII() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(command: "env LANG=C LC_ALL=C \(shellQuote(binary)) --scenario pipeline --speed 2")
        defer { tmux.kill() }
        let shown = try tmux.waitUntil { $0.contains("progress ") && $0.contains("#1 ") && $0.contains("Events") }
        #expect(shown.matched, "dashboard never appeared:\n\(shown.screen)")
        let nonASCII = shown.screen.unicodeScalars.filter { $0.value >= 0x80 }
        #expect(
            nonASCII.isEmpty,
            "bytes ≥ 0x80 under LANG=C: \(String(String.UnicodeScalarView(nonASCII)))\n\(shown.screen)")
        #expect(shown.screen.contains("opsdash | "), "ASCII separators:\n\(shown.screen)")
        try tmux.sendKeys("q")
        let ended = try tmux.waitUntil { $0.contains("[tty ") }
        #expect(ended.screen.contains("[tty sane]"))
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func noColorDrawsWithoutColoursButKeepsAttributes() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let coloured = try tmuxScreenWithEscapes("\(shellQuote(binary)) --scenario pipeline --speed 2")
        #expect(!colourParameters(in: coloured).isEmpty, "the default draws in colour:\n\(coloured)")
        let plain = try tmuxScreenWithEscapes("env NO_COLOR=1 \(shellQuote(binary)) --scenario pipeline --speed 2")
        #expect(colourParameters(in: plain).isEmpty, "colours under NO_COLOR:\n\(plain)")
        #expect(plain.contains("\u{1B}[1m") || plain.contains(";1m") || plain.contains("[1;"), "bold remains")
        #expect(plain.contains("\u{1B}[7m") || plain.contains(";7m") || plain.contains("[7;"), "reverse remains")
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func aFinishedRunSaysDoneAndTheClockStops() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(command: "\(shellQuote(binary)) --scenario pipeline --speed 100")
        defer { tmux.kill() }
        let done = try tmux.waitUntil(timeout: .seconds(20)) { $0.contains(" DONE ") }
        #expect(done.matched, "never said DONE:\n\(done.screen)")
        let header = try #require(done.screen.split(separator: "\n").first)
        #expect(header.contains("succeeded"), "\(header)")
        #expect(header.hasSuffix(" ×100"), "\(header)")
        #expect(!header.contains("RUNNING"))
        // Two seconds later (200 simulated seconds) the clock reads the same.
        Thread.sleep(forTimeInterval: 2)
        let later = try #require(try tmux.capture().split(separator: "\n").first)
        #expect(later == header)
        try tmux.sendKeys("q")
        let ended = try tmux.waitUntil { $0.contains("[tty ") }
        #expect(tmux.exitStatus(in: ended.screen) == 0, "\(ended.screen)")
    }

    /// Starts `command` in tmux, waits for the dashboard's rows and returns the screen with
    /// escapes, then quits the dashboard.
    private func tmuxScreenWithEscapes(_ command: String) throws -> String {
        let tmux = try TmuxSession(command: command)
        defer { tmux.kill() }
        let shown = try tmux.waitUntil { $0.contains("#1 ") && $0.contains("Events") }
        #expect(shown.matched, "dashboard never appeared:\n\(shown.screen)")
        let screen = try tmux.captureWithEscapes()
        try tmux.sendKeys("q")
        let ended = try tmux.waitUntil { $0.contains("[tty ") }
        #expect(ended.matched, "opsdash did not quit:\n\(ended.screen)")
        return screen
    }
}

/// The SGR parameters that set a foreground or background colour (30–49, 90–107; not 39/49,
/// the defaults) in `text`.
func colourParameters(in text: String) -> [String] {
    var found: [String] = []
    var rest = Substring(text)
    while let start = rest.range(of: "\u{1B}[") {
        rest = rest[start.upperBound...]
        guard let end = rest.firstIndex(where: { !($0.isNumber || $0 == ";") }) else { break }
        if rest[end] == "m" {
            for parameter in rest[..<end].split(separator: ";") {
                if let value = Int(parameter), value != 39, value != 49,
                    (30...49).contains(value) || (90...107).contains(value)
                {
                    found.append(String(parameter))
                }
            }
        }
        rest = rest[end...]
    }
    return found
}
