// A replay's frames in situ (issue #28 goal 4): writes a recording of 200,000 operations queued
// in one instant (200,000 event lines at t 0.1 s, then 10 running at a time, one finishing every
// 10 ms for 20 s, keyframes by the default policy), then plays it at ×1 through `ReplaySource`
// (what `opsdash replay` shows) with a reducer and renderer at 120×40, a frame every 50 ms, and
// reports the longest frame (wall time: events applied, picture, reduce, render, diff), how many
// frames the instant took, and, for comparison, the one frame applying the whole instant at once
// takes (`RecordingCursor.advance(to:)`, what a frame did before a frame's work was bounded);
// then, paused, a seek to 0:10 (loading the keyframe of every queued operation), in one go and a
// frame's budget at a time, with the store built from that keyframe at once for comparison (what
// its last line did before the store was built as its lines came in); then `g` on an operation and
// `h`, which read the recording's last picture (its last keyframe, as large) a frame's budget at a
// time, against reading it in one go. A frame there is the source's picture, reduce, render.
//
//   swift build -c release --product ReplayFrameBench && .build/release/ReplayFrameBench
import Foundation
import OpsDashApp
import OpsDashUI
import OpsKit
import OpsMonitor
import OpsWire

let operations = Int(CommandLine.arguments.first { $0.hasPrefix("--operations=") }?.dropFirst(13) ?? "") ?? 200_000
let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-frames-\(getpid()).jsonl").path
defer { try? FileManager.default.removeItem(atPath: path) }

func milliseconds(_ duration: Duration) -> String {
    String(
        format: "%.1f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
}

do {
    let header = RecordingHeader(app: "bench", queue: "bench", started: "2026-01-01T00:00:00Z", source: "local")
    let writer = try RecordingWriter(path: path, header: header)
    var store = MonitorStore()
    store.recordsEvents = true
    let instant = Duration.milliseconds(100)
    for index in 0..<operations {
        _ = store.add(
            name: "chunk-\(index).bin", kind: .download, lifecycle: .ready, totalBytes: 1_000, dependencies: [],
            time: instant)
    }
    try writer.append(store.drainEvents())
    for index in 0..<2_000 {
        let time = instant + .milliseconds(10 * Int64(index + 1))
        store.transition(index + 1, to: .executing, time: time)
        store.transition(index + 1, to: .finished, outcome: .succeeded, message: nil, time: time)
        try writer.append(
            store.drainEvents(), keyframe: writer.wantsKeyframe(at: time) ? store.snapshot(time: time) : nil)
    }
    writer.close()
    let reader = try RecordingReader(path: path)

    // Before: the whole instant in one frame.
    var whole = try reader.cursorAtStart()
    let clock = ContinuousClock()
    let oneFrame = try clock.measure {
        try whole.advance(to: instant)
        _ = whole.builder.snapshot()
    }

    // After: playing at ×1, a frame every 50 ms.
    let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
    let renderer = FrameRenderer()
    var state = DashboardState(width: 120, height: 40, glyphs: .unicode)
    var version: UInt64?
    var longest = Duration.zero
    var frames = 0
    var catchingUp = 0
    let end = clock.now + .seconds(3)
    while clock.now < end {
        let frame = clock.measure {
            if let next = source.snapshot(ifChangedSince: version) {
                version = next.version
                _ = reduce(&state, .tick(next))
            }
            _ = renderer.frame(for: state)
        }
        frames += 1
        if source.isCatchingUp { catchingUp += 1 }
        longest = max(longest, frame)
        Thread.sleep(forTimeInterval: 0.05)
    }
    // Paused, a seek to 10 s: the keyframe of every queued operation, then the events after it.
    // In one go; then a frame's budget at a time, until the picture there is whole.
    let target = Duration.seconds(10)
    let atTarget = try reader.cursor(at: target).builder.snapshot()
    let inOneGo = try clock.measure { _ = try reader.cursor(at: target).builder.snapshot() }
    var fresh = EventSnapshotBuilder(limits: RecordingReader.limits)
    let storeAtOnce = clock.measure { fresh.load(atTarget) }
    source.togglePause()

    /// Frames (picture, reduce, render) until `done`: how long they took, how many, the longest,
    /// and the longest picture (the source's work) among them.
    func framesUntil(_ done: () -> Bool) -> (total: Duration, count: Int, longest: Duration, picture: Duration) {
        let start = clock.now
        var longest = Duration.zero
        var picture = Duration.zero
        var count = 0
        while true {
            let frameStart = clock.now
            let next = source.snapshot(ifChangedSince: nil)
            picture = max(picture, clock.now - frameStart)
            if let next { _ = reduce(&state, .tick(next)) }
            _ = renderer.frame(for: state)
            longest = max(longest, clock.now - frameStart)
            count += 1
            if done() { return (clock.now - start, count, longest, picture) }
        }
    }

    let seekCall = clock.measure { source.seek(to: target) }
    let seek = framesUntil { !source.isCatchingUp }
    print(
        "| paused seek to 0:10 (a keyframe of \(operations) operations) | in one go: \(milliseconds(inOneGo)); "
            + "the store built from it at once (its last line before): \(milliseconds(storeAtOnce)) | bounded: "
            + "whole after \(milliseconds(seek.total)) over \(seek.count) frames; the key "
            + "\(milliseconds(seekCall)), longest frame \(milliseconds(seek.longest)) (the source's part at most "
            + "\(milliseconds(seek.picture))) |")

    // `g` on operation 1,000 (finished at 10.1 s), then `h`: the recording's last picture.
    let endInOneGo = try clock.measure { _ = try reader.cursor(at: reader.duration).builder.snapshot() }
    let timelineInOneGo = try clock.measure { _ = try reader.timeline() }
    state.selectedID = 1_000
    let gCall = clock.measure { _ = source.handle(.character("g"), in: state) }
    let g = framesUntil { !source.isReadingEnd && !source.isCatchingUp }
    let hCall = clock.measure { _ = source.handle(.character("h"), in: state) }
    let h = framesUntil { !source.isReadingEnd }
    let gText =
        "g \(milliseconds(gCall)), then \(g.count) frames, longest \(milliseconds(g.longest)) (source "
        + "\(milliseconds(g.picture)))"
    let hText =
        "h \(milliseconds(hCall)), then \(h.count) frames, longest \(milliseconds(h.longest)) (source "
        + "\(milliseconds(h.picture)))"
    let oneGo = "the last picture \(milliseconds(endInOneGo)), the timeline \(milliseconds(timelineInOneGo))"
    print(
        "| g, then h (the last picture: a keyframe of \(operations) operations) | in one go: \(oneGo) | bounded: "
            + "\(gText); \(hText) |")
    print(
        "| replay of \(operations) operations queued in one instant, ×1, 120×40 | longest frame \(milliseconds(longest)) "
            + "(\(frames) frames in 3 s, \(catchingUp) of them catching up) | the instant in one frame: "
            + "\(milliseconds(oneFrame)) | \(state.snapshot.counts.total) operations shown at 3 s |")
} catch {
    FileHandle.standardError.write(Data("ReplayFrameBench: \(error)\n".utf8))
    exit(1)
}
