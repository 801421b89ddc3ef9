import Foundation
import OpsKitTesting
import Testing

/// `--until CONDITION` against the built binary: a condition that becomes true ends the run with
/// exit 4, an `until` line naming it and the summary last; a bad one is exit 2 with one line.
@Suite(.ownThread) struct UntilEndToEndTests {
    /// The JSON objects of `stdout`'s lines.
    private static func objects(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func theFirstFailureEndsALocalRunWithFourAndTheUntilLine() throws {
        // `flaky` has operations that fail for good; without --until it runs to the end (exit 1).
        let result = try runOpsdash(["--headless", "--scenario", "flaky", "--speed", "200", "--until", "failed>0"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr == "")
        let lines = Self.objects(result.stdout)
        let until = try #require(lines.dropLast().last)
        #expect(until["event"] as? String == "until")
        #expect(until["condition"] as? String == "failed>0")
        #expect((until["value"] as? Int ?? 0) >= 1)
        let summary = try #require(lines.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["interrupted"] as? Bool == false)
        #expect((summary["failed"] as? Int ?? 0) >= 1)
        #expect(lines.filter { $0["event"] as? String == "until" }.count == 1)
    }

    /// A scenario that stalls: one 200-second transfer holds the only slot while three wait
    /// behind it. `stalled>30s` ends it with 4 and the stall's seconds; `stalled>300s` never
    /// holds, so the run ends as it would without it.
    @Test func aStalledQueueEndsTheRunWithFourAndTheStallsSeconds() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opsdash-stall-\(UUID().uuidString).json"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scenario = """
            {"name": "stall", "description": "one long transfer holds the only slot", "concurrency": 1, "seed": 1,
             "operations": [
               {"id": "quick", "name": "quick.txt", "kind": "download", "size": 1000, "bandwidth": 1000000},
               {"id": "long", "name": "long.bin", "kind": "download", "size": 20000000, "bandwidth": 100000},
               {"id": "after-{i}", "name": "after-{i}.txt", "kind": "upload", "repeat": 3, "size": 1000,
                "bandwidth": 1000000, "after": ["long"]}]}
            """
        try Data(scenario.utf8).write(to: URL(fileURLWithPath: path))
        let result = try runOpsdash(["--headless", "--scenario", path, "--speed", "50", "--until", "stalled>30s"])
        #expect(result.status == 4, "\(result.stderr)")
        let lines = Self.objects(result.stdout)
        let until = try #require(lines.dropLast().last)
        #expect(until["event"] as? String == "until")
        #expect(until["condition"] as? String == "stalled>30s")
        let stalled = try #require(until["value"] as? Double)
        #expect(stalled > 30 && stalled < 200, "the seconds nothing finished: \(stalled)")
        let summary = try #require(lines.last)
        #expect(summary["succeeded"] as? Int == 1 && summary["executing"] as? Int == 1)
        #expect(summary["waiting"] as? Int == 3, "the three behind the long one still wait")

        let whole = try runOpsdash(["--headless", "--scenario", path, "--speed", "1000", "--until", "stalled>300s"])
        #expect(whole.status == 0, "200 s is no 300 s stall: \(whole.stderr)")
        #expect(!whole.stdout.contains(#""event":"until""#))
    }

    @Test func aRunThatEndsFirstExitsAsWithoutUntil() throws {
        let result = try runOpsdash(["--headless", "--scenario", "downloads", "--speed", "1000", "--until", "failed>0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(#""event":"until""#))
    }

    @Test func aBadConditionIsExitTwoWithOneEscapedLine() throws {
        let result = try runOpsdash(["--headless", "--until", "fialed\u{1B}[2J>0"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "opsdash: --until: unknown count 'fialed' in 'fialed\\u{1B}[2J>0' (one of: waiting, ready, running, succeeded, failed, cancelled, finished, unfinished, total, stalled)\n"
        )
        #expect(result.stdout == "")
        let withoutHeadless = try runOpsdash(["--until", "failed>0"])
        #expect(withoutHeadless.status == 2)
        #expect(withoutHeadless.stderr == "opsdash: --until needs --headless\n")
    }

    @Test func attachHeadlessEndsWhenTheAppsPictureMeetsTheCondition() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--rounds", "0", "--speed", "4"], runtime: runtime)
        let result = try runOpsdash(
            ["attach", "--headless", "--until", "finished >= 1"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 4, "\(result.stderr)")
        let lines = Self.objects(result.stdout)
        let until = try #require(lines.dropLast().last)
        #expect(until["event"] as? String == "until")
        #expect(until["condition"] as? String == "finished>=1")
        #expect(lines.last?["event"] as? String == "summary")
        #expect(app.process.isRunning, "the app goes on without its viewer")
    }
}
