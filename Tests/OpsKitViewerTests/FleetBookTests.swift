import OpsMonitor
import OpsWire
import Testing

@_spi(OpsDashInternals) @testable import OpsKitViewer

/// The fleet list's state: joining, answers, throughput samples, departing and dropping.
@Suite struct FleetBookTests {
    static func queue(_ pid: Int, app: String = "AppExample") -> PublishedQueue {
        PublishedQueue(app: app, queue: "images", pid: pid, started: 100, socket: "/run/\(pid).sock", viewers: 1)
    }

    static func status(at seconds: Int, finished: Int, viewers: Int = 2) -> PublisherMessage.Status {
        .init(
            time: .seconds(seconds), suspended: false, limit: 3,
            counts: StateCounts(waiting: 5, executing: 2, succeeded: finished), viewers: viewers)
    }

    @Test func anAnswerFillsTheEntryAndTwoAnswersMakeAThroughputSample() {
        var book = FleetBook()
        book.listed([Self.queue(1)], at: 1_000)
        #expect(book.entries.map(\.presence) == [.connecting])
        #expect(book.entries.first?.viewers == 1, "the sidecar's count until the app answers")
        book.welcomed("/run/1.sock", role: .controller)
        book.answered("/run/1.sock", Self.status(at: 10, finished: 4), at: 1_001)
        book.answered("/run/1.sock", Self.status(at: 12, finished: 10), at: 1_003)
        let entry = book.entries.first
        #expect(entry?.presence == .live)
        #expect(entry?.controlAllowed == true)
        #expect(entry?.counts?.executing == 2)
        #expect(entry?.viewers == 2)
        #expect(entry?.throughput == [3])
        #expect(entry?.lastSeen == 1_003)
    }

    @Test func aCountThatGoesDownIsNoNegativeThroughputAndSamplesAreBounded() {
        var book = FleetBook()
        book.listed([Self.queue(1)], at: 0)
        for second in 0...(FleetEntry.throughputSamples + 10) {
            book.answered(
                "/run/1.sock", Self.status(at: second, finished: second % 2 == 0 ? 100 : 0), at: Double(second))
        }
        let samples = book.entries.first?.throughput ?? []
        #expect(samples.count == FleetEntry.throughputSamples)
        #expect(samples.allSatisfy { $0 >= 0 })
        // An answer at the same moment adds no sample (no division by zero).
        book.answered("/run/1.sock", Self.status(at: 0, finished: 5), at: Double(FleetEntry.throughputSamples + 10))
        #expect(book.entries.first?.throughput.count == FleetEntry.throughputSamples)
    }

    @Test func anAppThatWentAwayGreysOutThenDropsAfterTheKeepTime() {
        var book = FleetBook(keepDeparted: 60)
        book.listed([Self.queue(1), Self.queue(2, app: "Other")], at: 1_000)
        book.listed([Self.queue(2, app: "Other")], at: 1_010)
        #expect(book.entries.map(\.presence) == [.departed, .connecting])
        #expect(book.entries.first?.departedAt == 1_010)
        book.answered("/run/1.sock", Self.status(at: 1, finished: 1), at: 1_011)
        #expect(book.entries.first?.presence == .departed, "a late answer does not bring it back")
        book.listed([Self.queue(2, app: "Other")], at: 1_069)
        #expect(book.entries.count == 2)
        book.listed([Self.queue(2, app: "Other")], at: 1_070)
        #expect(book.entries.map(\.label) == ["Other/images"])
    }
}
