import Testing

@testable import OpsMonitor

@Suite struct RecentTimingsTests {
    @Test func percentilesAreNearestRankPerKind() throws {
        var timings = RecentTimings()
        for second in 1...100 {
            timings.record(kind: .download, wait: .seconds(second), run: .seconds(200 - second))
        }
        timings.record(kind: .upload, wait: .seconds(7), run: .seconds(9))
        let downloads = try #require(timings.percentiles(of: .download))
        #expect(downloads.count == 100)
        #expect(downloads.wait == Percentiles(p50: .seconds(50), p95: .seconds(95), p99: .seconds(99)))
        // Runs of 100…199 s: the 50th, 95th and 99th smallest.
        #expect(downloads.run == Percentiles(p50: .seconds(149), p95: .seconds(194), p99: .seconds(198)))
        let uploads = try #require(timings.percentiles(of: .upload))
        #expect(uploads.wait == Percentiles(p50: .seconds(7), p95: .seconds(7), p99: .seconds(7)))
        #expect(timings.percentiles(of: .process) == nil)
    }

    @Test func theWindowKeepsTheLastFinishesOnly() throws {
        var timings = RecentTimings()
        for _ in 0..<RecentTimings.capacity { timings.record(kind: .process, wait: .seconds(100), run: .zero) }
        for _ in 0..<RecentTimings.capacity / 2 { timings.record(kind: .process, wait: .seconds(1), run: .zero) }
        #expect(timings.count == RecentTimings.capacity)
        let recent = try #require(timings.percentiles(of: .process))
        #expect(recent.count == RecentTimings.capacity)
        // Half the window is the newer 1 s waits: the median is one of them, p95 an old one.
        #expect(recent.wait.p50 == .seconds(1))
        #expect(recent.wait.p95 == .seconds(100))
    }

    @Test func theStoreRecordsEachStartedFinishOnItsClock() throws {
        var store = MonitorStore()
        let ran = store.add(
            name: "ran", kind: .download, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .seconds(1))
        let never = store.add(
            name: "never", kind: .download, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .seconds(1))
        store.transition(ran, to: .executing, time: .seconds(3))
        #expect(store.snapshot(time: .seconds(3)).recentTimings.count == 0, "nothing finished yet")
        store.transition(ran, to: .finished, outcome: .succeeded, time: .milliseconds(7_500))
        store.transition(never, to: .finished, outcome: .cancelled, time: .seconds(8))
        let snapshot = store.snapshot(time: .seconds(8))
        #expect(snapshot.recentTimings.count == 1, "one that never started has no wait or run time")
        let recent = try #require(snapshot.recentTimings.percentiles(of: .download))
        #expect(recent.wait.p50 == .seconds(2))
        #expect(recent.run.p99 == .milliseconds(4_500))
    }

    @Test func aStoreFromAKeyframeStartsWithItsFinishes() throws {
        var store = MonitorStore()
        let id = store.add(name: "a", kind: .upload, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        store.transition(id, to: .executing, time: .seconds(2))
        store.transition(id, to: .finished, outcome: .succeeded, time: .seconds(5))
        let keyframe = store.snapshot(time: .seconds(6))
        let joined = MonitorStore(snapshot: keyframe, limits: .init(), version: 1)
        let recent = try #require(joined.snapshot(time: .seconds(6)).recentTimings.percentiles(of: .upload))
        #expect(recent.wait.p50 == .seconds(2) && recent.run.p50 == .seconds(3))
    }
}
