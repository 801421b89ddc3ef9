import Foundation
import OpsMonitor
@testable import OpsWire
import Testing

@testable import OpsDashApp

/// `opsdash replay FILE` shows a large recording's first frame at once: opening checks it up to
/// its first keyframe, the rest is checked in the background, and what that check finds (a
/// warning, a broken line) reaches the dashboard when found; `--start-at` checks it up to the
/// start, `--headless` whole first.
@Suite(.ownThread) struct ReplayFirstFrameTests {
    /// 400 operations, one finishing every 0.1 s (1,200 event lines), a keyframe every 100 events.
    static func write(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opsdash-\(name)-\(UUID().uuidString).jsonl"
        ).path
        let header = RecordingHeader(app: "test", queue: "q", started: "2026-01-01T00:00:00Z", source: "local")
        let writer = try RecordingWriter(
            path: path, header: header, policy: .init(interval: .seconds(1_000), events: 100))
        var store = MonitorStore()
        store.recordsEvents = true
        for index in 0..<400 {
            let time = Duration.milliseconds(100 * Int64(index + 1))
            let id = store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: time)
            store.transition(id, to: .executing, time: time)
            store.transition(id, to: .finished, outcome: .succeeded, message: nil, time: time)
            try writer.append(
                store.drainEvents(), keyframe: writer.wantsKeyframe(at: time) ? store.snapshot(time: time) : nil)
        }
        writer.close()
        return path
    }

    @Test func theDashboardOpensAtTheFirstKeyframeStartAtAtItsStartAndHeadlessChecksItWhole() throws {
        let opening = { (arguments: [String]) throws -> RecordingReader.Opening in
            try ReplayCommand.parse(["run.jsonl"] + arguments).opening(progress: OpeningProgress(path: "run.jsonl"))
        }
        guard case .firstFrame(inBackground: true, _) = try opening([]) else {
            Issue.record("the dashboard checks the whole recording first")
            return
        }
        guard case .whole = try opening(["--headless"]) else {
            Issue.record("--headless does not check the whole recording first")
            return
        }
        guard case .past(.seconds(5), inBackground: true, _) = try opening(["--start-at", "5"]) else {
            Issue.record("--start-at does not check the recording up to its start only")
            return
        }
    }

    @Test func startAtShowsItsPictureWhenTheCheckIsPastItAndRefusesAStartPastTheEnd() throws {
        let path = try Self.write("first-frame-start-at")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordingReader(path: path, opening: .past(.seconds(5), inBackground: false, progress: nil))
        #expect(!reader.isChecked)
        #expect(reader.duration > .seconds(5) && reader.duration < .seconds(40), "\(reader.duration)")
        let source = try ReplaySource(reader: reader, start: .seconds(5), speed: 1, idleLimit: nil)
        source.frameBudget = .seconds(60)
        source.togglePause()
        source.seek(to: .seconds(5))
        let shown = try #require(source.snapshot(ifChangedSince: nil))
        #expect(shown.time == .seconds(5))
        #expect(shown.counts.succeeded == 50)
        #expect(try ReplayCommand.parse(["run.jsonl", "--start-at", "5"]).startProblem(reader) == nil)

        // Past the end: checked to the end, then refused.
        let late = try RecordingReader(path: path, opening: .past(.seconds(100), inBackground: false, progress: nil))
        #expect(late.isChecked)
        let problem = try ReplayCommand.parse(["run.jsonl", "--start-at", "100"]).startProblem(late)
        #expect(
            problem?.contains("--start-at 100 is past the end of the recording (it ends at 0:40.000)") == true,
            "\(problem ?? "")")
    }

    @Test func theHeaderSaysHowFarTheCheckHasGotAndTheLengthGrowsWithIt() throws {
        let path = try Self.write("first-frame-status")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordingReader(path: path, opening: .firstFrame(inBackground: false, atLeast: 0))
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        _ = source.snapshot(ifChangedSince: nil)
        #expect(source.status().detail.hasPrefix("— checking "), "\(source.status().detail)")
        #expect(source.status().playback?.length == reader.duration)
        #expect(reader.duration < .seconds(40))
        reader.checkRest()
        #expect(source.status().detail == "")
        #expect(source.status().playback?.length == .seconds(40))
    }

    @Test func aBrokenLineFoundAfterOpeningIsShownAndItsWarningsSaid() throws {
        let path = try Self.write("first-frame-broken")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        // A gap in seq (a warning), then a broken line.
        lines.remove(at: lines.count / 2)
        lines[lines.count * 3 / 4] = "not json"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let refused = #expect(throws: RecordingError.self) { try RecordingReader(path: path) }

        let reader = try RecordingReader(path: path, opening: .firstFrame(inBackground: false, atLeast: 0))
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        let said = SaidLines()
        source.warn = { said.lines.append($0) }
        _ = source.snapshot(ifChangedSince: nil)
        #expect(said.lines.isEmpty)
        reader.checkRest()
        _ = source.snapshot(ifChangedSince: nil)
        #expect(said.lines.count == 1)
        #expect(said.lines.first?.contains("event missing") == true, "\(said.lines)")
        let problem = try #require(refused?.description)
        #expect(source.status().detail == "— \(problem)")
        #expect(reader.problem?.description == problem)
    }
}

/// What a `warn` closure was given (the tests run it on their own thread only).
private final class SaidLines: @unchecked Sendable {
    var lines: [String] = []
}
