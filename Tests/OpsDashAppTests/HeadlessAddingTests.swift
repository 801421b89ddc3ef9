import Foundation
import OpsKitTesting
import Testing

@testable import OpsDashApp

/// Headless mode streams while a large scenario is still being added, and a stop signal then
/// ends it with a summary that agrees with the stream.
@Suite(.ownThread) struct HeadlessAddingTests {
    /// A run of 5 batches of short process steps on a paused queue (so the count only grows,
    /// whatever the machine's load), whose adding thread stops inside the second batch until
    /// `release` is signalled.
    final class HeldRun: @unchecked Sendable {
        // Locking: `held` is only touched on the adding thread; the semaphores are thread-safe.
        let run: ScenarioRun
        let reachedSecondBatch = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private var held = false
        private var token: NSKeyValueObservation?

        init() throws {
            let total = 5 * ScenarioRun.addBatch
            let json = """
                {"name": "held", "description": "d", "concurrency": 8, "seed": 1, "operations": [
                  {"id": "step-{i}", "kind": "process", "repeat": \(total), "duration": 0.001}]}
                """
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("opsdash-held-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            try json.write(toFile: file, atomically: true, encoding: .utf8)
            run = ScenarioRun(
                scenario: try ScenarioCatalog.load(file, seed: nil), concurrency: nil, speed: 1000,
                recordEvents: true)
            run.queue.isSuspended = true
            // Holds the adding thread inside the second batch. The queue is suspended, so only
            // that thread makes the count grow. (Not told apart by `Thread.current.name`: on
            // Linux that read "oot.default-qos", the name a thread inherits from its maker, on the
            // adding thread in one run of three.)
            token = run.queue.observe(\.operationCount, options: [.old, .new]) { [self] _, change in
                let (old, new) = (change.oldValue ?? 0, change.newValue ?? 0)
                guard !held, new > old, new > ScenarioRun.addBatch else { return }
                held = true
                reachedSecondBatch.signal()
                release.wait()
            }
        }
    }

    /// Reads `descriptor` until `done` holds for the end of what was read, or `timeout` passes.
    static func readText(_ descriptor: Int32, timeout: Duration, until done: (String) -> Bool) -> String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) == 1 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
            if done(String(decoding: data.suffix(4096), as: UTF8.self)) { break }
        }
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theStreamStartsBeforeTheScenarioIsAllAddedAndASignalEndsItInAgreement() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        let held = try HeldRun()
        let signals = StopSignals([SIGUSR2])
        let runner = HeadlessRunner(run: held.run, summaryEvery: nil, signals: signals, descriptor: writer)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = runner.execute()
            close(writer)
            finished.signal()
        }
        defer { held.release.signal() }
        // The first batch streams while the adding thread waits in the second.
        try #require(held.reachedSecondBatch.wait(timeout: .now() + 60) == .success)
        #if os(Linux)
        #expect(systemThreadNames().contains("opsdash.adding"), "top -H names the adding thread")
        #endif
        let first = Self.readText(reader, timeout: .seconds(30)) { $0.contains("\n") }
        #expect(first.contains(#""event":"added""#), "no line while the scenario was being added")
        #expect(held.run.notAddedCount >= 3 * ScenarioRun.addBatch)
        // A stop signal now: adding stops after the batch in hand, and the summary counts what
        // the stream shows.
        signals.deliverToWatcher(SIGUSR2)
        #expect(eventually(timeout: .seconds(60)) { held.run.isAddingStopped })
        held.release.signal()
        let rest = Self.readText(reader, timeout: .seconds(60)) {
            $0.contains(#""event":"summary""#) && $0.hasSuffix("\n")
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let lines = (first + rest).split(separator: "\n")
        let added = lines.filter { $0.contains(#""event":"added""#) }.count
        let summary = try #require(lines.last)
        #expect(summary.contains(#""interrupted":true"#), "\(summary)")
        #expect(summary.contains(#""operations":\#(added),"#), "\(added) added: \(summary)")
        #expect(added == 2 * ScenarioRun.addBatch)
        #expect(held.run.notAddedCount == 3 * ScenarioRun.addBatch)
        held.run.queue.cancelAllOperations()
        held.run.queue.isSuspended = false
    }
}
