import Foundation
import OpsKitTesting
import Testing

/// `/` with `n`/`N` selects matches without hiding rows, and `x` asks before cancelling an
/// operation with its dependents, in the real dashboard.
@Suite(.ownThread) struct SearchAndBulkCancelTests {
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func searchJumpsAndASubtreeCancelAsksWithTheCount() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(command: "\(shellQuote(binary)) --scenario pipeline")
        defer { tmux.kill() }
        #expect(try tmux.waitUntil { $0.contains("RUNNING") && $0.contains("#1 ") }.matched)
        // Paused before the filters (#9-#16) and uploads (#17-#24) of image 8 can start.
        try tmux.sendKeys("p")
        #expect(try tmux.waitUntil { $0.contains("PAUSED") }.matched)

        try tmux.sendKeys("/")
        try tmux.sendKeys("-l", "image-8")
        try tmux.sendKeys("Enter")
        let first = try tmux.waitUntil { $0.contains("1/3 matches for 'image-8'") }
        #expect(first.matched, "no first match:\n\(first.screen)")
        #expect(first.screen.contains("#1 "), "the search hid rows:\n\(first.screen)")
        try tmux.sendKeys("n")
        #expect(try tmux.waitUntil { $0.contains("2/3 matches for 'image-8'") }.matched)
        try tmux.sendKeys("N")
        try tmux.sendKeys("N")
        let wrapped = try tmux.waitUntil { $0.contains("3/3 matches for 'image-8'") }
        #expect(wrapped.matched, "N did not wrap round:\n\(wrapped.screen)")

        // The second match is the filter step of image 8 (#16); its upload (#24) depends on it, and
        // the publish step (#25) on that.
        try tmux.sendKeys("n")
        try tmux.sendKeys("n")
        #expect(try tmux.waitUntil { $0.contains("2/3 matches for 'image-8'") }.matched)
        let before = try #require(headerCount("cancelled", in: try tmux.capture()))
        try tmux.sendKeys("x")
        let asked = try tmux.waitUntil { $0.contains("Cancel #16 and its 2 dependents? (y/n)") }
        #expect(asked.matched, "no question with the count:\n\(asked.screen)")
        try tmux.sendKeys("y")
        let cancelled = try tmux.waitUntil { headerCount("cancelled", in: $0) == before + 3 }
        #expect(cancelled.matched, "#16, #24 and #25 were not cancelled:\n\(cancelled.screen)")
        try tmux.sendKeys("q")
    }
}
