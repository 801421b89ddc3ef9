// A replay's frames in situ (issue #28 goal 4): writes a recording of 200,000 operations queued
// in one instant (200,000 event lines at t 0.1 s, then 10 running at a time, one finishing every
// 10 ms for 20 s, keyframes by the default policy), then plays it at ×1 through `ReplaySource`
// (what `opsdash replay` shows) with a reducer and renderer at 120×40, a frame every 50 ms, and
// reports the longest frame (wall time: events applied, picture, reduce, render, diff), how many
// frames the instant took, and, for comparison, the one frame applying the whole instant at once
// takes (`RecordingCursor.advance(to:)`, what a frame did before a frame's work was bounded);
// then, paused, a seek to 0:10 (loading the keyframe of every queued operation), in one go as a
// seek did before, and a frame's budget at a time as it does now.
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
    // Before, in one go; now a frame's budget at a time, until the picture there is whole.
    let target = Duration.seconds(10)
    let inOneGo = try clock.measure { _ = try reader.cursor(at: target).builder.snapshot() }
    source.togglePause()
    let seekStart = clock.now
    let seekCall = clock.measure { source.seek(to: target) }
    var longestFrame = Duration.zero
    var lastFrame = Duration.zero
    var seekFrames = 0
    while true {
        var shown = false
        lastFrame = clock.measure { shown = source.snapshot(ifChangedSince: nil) != nil }
        longestFrame = max(longestFrame, lastFrame)
        seekFrames += 1
        if shown, !source.isCatchingUp { break }
    }
    print(
        "| paused seek to 0:10 (a keyframe of \(operations) operations) | in one go: \(milliseconds(inOneGo)) | bounded: "
            + "whole after \(milliseconds(clock.now - seekStart)) over \(seekFrames) frames; the key "
            + "\(milliseconds(seekCall)), longest frame \(milliseconds(longestFrame)), the last (the picture) "
            + "\(milliseconds(lastFrame)) |")
    print(
        "| replay of \(operations) operations queued in one instant, ×1, 120×40 | longest frame \(milliseconds(longest)) "
            + "(\(frames) frames in 3 s, \(catchingUp) of them catching up) | the instant in one frame: "
            + "\(milliseconds(oneFrame)) | \(state.snapshot.counts.total) operations shown at 3 s |")
} catch {
    FileHandle.standardError.write(Data("ReplayFrameBench: \(error)\n".utf8))
    exit(1)
}
