import Foundation
import OpsKitTesting
import Testing

@testable import OpsDashApp

/// A reader that lags holds the simulated run back instead of piling up output.
@Suite(.ownThread) struct HeadlessBackPressureTests {
    @Test func aStalledReaderPausesTheRunAndReadingResumesIt() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let scenario = try ScenarioCatalog.load("burst", seed: 3)
        let run = ScenarioRun(scenario: scenario, concurrency: nil, speed: 1000, recordEvents: true)
        let runner = HeadlessRunner(run: run, summaryEvery: nil, signals: StopSignals([SIGUSR2]), descriptor: ends[1])
        let finished = DispatchSemaphore(value: 0)
        let status = Box()
        Thread.detachNewThread {
            status.value = runner.execute()
            finished.signal()
        }
        // Nobody reads: 10,000 operations' first lines alone are over the high-water mark.
        // (The clock also stands still until the operations are built: wait until all are added.)
        #expect(
            eventually(timeout: .seconds(20)) { run.notAddedCount == 0 && run.clock.isPaused },
            "the run went on while its output piled up")
        // Read everything: the run resumes and finishes.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var text = Data()
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count > 0 { text.append(contentsOf: buffer[0..<count]) }
            if count <= 0 || text.suffix(200).contains(Data("\"summary\"".utf8)) && text.last == 0x0A { break }
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        close(ends[1])
        #expect([OpsDashApp.ExitStatus.success, .someFailed].contains(status.value))
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
        #expect(lines.last?.contains("\"interrupted\":false") == true)
        #expect(lines.filter { $0.contains("\"to\":\"finished\"") }.count == 10_000)
    }
}

/// A value written by one thread before a semaphore signal and read after the wait.
private final class Box: @unchecked Sendable {
    // Locking: written once before `finished.signal()`, read after `finished.wait()`.
    var value: OpsDashApp.ExitStatus?
}
