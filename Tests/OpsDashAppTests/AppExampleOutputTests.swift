import Testing

/// What `AppExample` prints: where it publishes once, and at exit one summary line rather than
/// a line per operation it ever ran.
@Suite struct AppExampleOutputTests {
    @Test func saysWhereItPublishesOnceAndEndsWithOneSummaryLine() throws {
        let run = try AppExampleArgumentTests.run(["--rounds", "1", "--speed", "50"])
        #expect(run.status == 0, "\(run.stderr)")
        let output = run.stdout + run.stderr
        let publishing = output.split(separator: "\n").filter { $0.contains("publishing") }
        #expect(publishing.count == 1, "\(publishing)")
        #expect(
            publishing.first?.hasSuffix(".sock") == true && publishing.first?.contains("AppExample/images on ") == true)
        let lines = run.stdout.split(separator: "\n")
        // Round 1: photo-1-6.jpg is cancelled by the app's plan, and its thumbnail with it.
        #expect(lines.last == "ran 12 operations: 10 succeeded, 0 failed, 2 cancelled", "\(run.stdout)")
        #expect(!lines.contains { $0.hasPrefix("#") }, "a line per operation: \(run.stdout)")
    }
}
