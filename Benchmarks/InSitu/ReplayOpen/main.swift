// Opening and seeking a large recording in situ (issue #28 goal 4): writes a 1,000,000-event
// recording (200,000 operations added → executing → progress → finished, 10 ms apart, keyframes by
// the default policy: what `Ratios --only=2c` writes), then through `ReplaySource` (what
// `opsdash replay` shows) measures the time to the first picture when opening checks every line
// first (`--headless`, `--start-at`) and when it checks up to the first keyframe and the rest in
// the background (the dashboard); then, paused, a seek to the middle and to the end: the time
// until the picture there is whole and the longest single call (a key or a frame). The same
// seeks into a keyframe of 200,000 waiting operations: `ReplayFrameBench`.
//
//   swift build -c release --product ReplayOpenBench && .build/release/ReplayOpenBench
import Foundation
import OpsDashApp
import OpsMonitor
import OpsWire

func argument(_ name: String, _ fallback: Int) -> Int {
    Int(CommandLine.arguments.first { $0.hasPrefix("--\(name)=") }?.dropFirst(name.count + 3) ?? "") ?? fallback
}
let events = argument("events", 1_000_000)
let clock = ContinuousClock()
let header = RecordingHeader(app: "bench", queue: "bench", started: "2026-01-01T00:00:00Z", source: "local")

func milliseconds(_ duration: Duration) -> String {
    String(
        format: "%.1f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(
        separator: " ")
        ?? "?"
}

/// A recording of `events` events, 5 per operation, 10 ms apart.
func writeSteady(_ path: String) throws {
    let writer = try RecordingWriter(path: path, header: header)
    var store = MonitorStore()
    store.recordsEvents = true
    for index in 0..<(events / 5) {
        let time = Duration.milliseconds(10 * Int64(index + 1))
        let id = store.add(
            name: "op-\(index)", kind: .download, lifecycle: .ready, totalBytes: 1_000, dependencies: [], time: time)
        store.transition(id, to: .executing, time: time)
        store.progress(id, completedBytes: 500, bytesPerSecond: 1e5, retries: 0, time: time)
        store.transition(id, to: .finished, outcome: index % 13 == 0 ? .failed : .succeeded, message: nil, time: time)
        try writer.append(
            store.drainEvents(), keyframe: writer.wantsKeyframe(at: time) ? store.snapshot(time: time) : nil)
    }
    writer.close()
}

/// Paused, seeks `source` to `fraction` of the recording: the time until its picture there is
/// whole, and the longest call (the key, or a frame).
func seek(_ source: ReplaySource, to fraction: Double) -> (total: Duration, longest: Duration, frames: Int) {
    let start = clock.now
    var longest = clock.measure { source.seek(to: source.reader.duration * fraction) }
    var frames = 0
    while true {
        var shown = false
        longest = max(longest, clock.measure { shown = source.snapshot(ifChangedSince: nil) != nil })
        frames += 1
        if shown, !source.isCatchingUp { break }
    }
    return (clock.now - start, longest, frames)
}

/// The same picture in one go, as a seek did before: the nearest keyframe and the events after it.
func seekInOneGo(_ reader: RecordingReader, to fraction: Double) throws -> Duration {
    try clock.measure { _ = try reader.cursor(at: reader.duration * fraction).builder.snapshot() }
}

func seekRows(_ name: String, path: String) throws {
    let reader = try RecordingReader(path: path)
    let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
    source.togglePause()
    for (label, fraction) in [("middle", 0.5), ("end", 1.0)] {
        let before = try seekInOneGo(reader, to: fraction)
        let after = seek(source, to: fraction)
        print(
            "| \(name): seek to the \(label), paused | in one go: \(milliseconds(before)) | bounded: whole picture after "
                + "\(milliseconds(after.total)) over \(after.frames) frame(s), longest call \(milliseconds(after.longest)) |"
        )
    }
}

do {
    let directory = FileManager.default.temporaryDirectory
    let path = directory.appendingPathComponent("replay-open-\(getpid()).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try writeSteady(path)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print("load average before: \(loadAverage()); \(events) events, \(size / 1_048_576) MiB")

    // Before (and still for --headless / --start-at): every line checked, then the first picture.
    var whole: RecordingReader?
    let checkedFirst = try clock.measure {
        let reader = try RecordingReader(path: path)
        _ = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil).snapshot(ifChangedSince: nil)
        whole = reader
    }
    // After: up to the first keyframe, the rest in the background.
    var lazy: RecordingReader?
    let started = clock.now
    let firstFrame = try clock.measure {
        let reader = try RecordingReader(path: path, opening: .firstFrame(inBackground: true))
        _ = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil).snapshot(ifChangedSince: nil)
        lazy = reader
    }
    let linesBefore = lazy?.checked.lines ?? 0
    lazy?.checkRest()
    let checkedAll = clock.now - started
    print(
        "| first picture of a \(events)-event recording | every line checked first: \(milliseconds(checkedFirst)) | "
            + "first keyframe only (\(linesBefore) lines checked): \(milliseconds(firstFrame)); whole check done in the "
            + "background after \(milliseconds(checkedAll)) | same length: \(whole?.duration == lazy?.duration) |")
    try seekRows("\(events) events", path: path)
    print("load average after: \(loadAverage())")
} catch {
    FileHandle.standardError.write(Data("ReplayOpenBench: \(error)\n".utf8))
    exit(1)
}
