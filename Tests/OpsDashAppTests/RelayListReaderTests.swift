import Foundation
@_spi(OpsDashInternals) import OpsKitViewer
import OpsMonitor
import Testing

@testable import OpsDashApp

/// What `opsdash relay --list` writes, read back on the viewer's side: the round trip of
/// `FleetLines`, rounds split anywhere, and everything a hostile host may send bounded.
@Suite struct RelayListReaderTests {
    private static func entry(pid: Int, failed: Int = 0, lastSeen: Double? = 1_000) -> FleetEntry {
        var entry = FleetEntry(
            published: PublishedQueue(
                app: "AppExample", queue: "images", pid: pid, started: 900, socket: "/run/x.\(pid).sock", viewers: 2))
        entry.presence = .live
        entry.controlAllowed = true
        entry.counts = StateCounts(waiting: 1, ready: 2, executing: 3, succeeded: 4, failed: failed, cancelled: 5)
        entry.suspended = true
        entry.limit = -1
        entry.viewers = 2
        entry.throughput = [0.5, 2]
        entry.lastSeen = lastSeen
        return entry
    }

    @Test func aRoundOfFleetLinesReadsBackAsTheSameEntriesWhereverTheBytesSplit() throws {
        let entries = [Self.entry(pid: 1), Self.entry(pid: 2, failed: 7, lastSeen: nil)]
        let bytes = Array(
            (FleetLines.text(entries, host: "far") + RelayList.roundEnd(apps: 2, time: 1_001.5)).utf8)
        for split in [1, 7, 100, bytes.count - 1] {
            var reader = RelayListReader()
            let first = try reader.read(bytes[..<split]).get()
            let second = try reader.read(bytes[split...]).get()
            #expect(first.isEmpty)
            #expect(second == [RelayListReader.Round(entries: entries, time: 1_001.5)], "split at \(split)")
        }
    }

    @Test func anEmptyRoundListsNoAppsAndAnEntryNotYetAnsweredHasNoCounts() throws {
        var connecting = FleetEntry(
            published: PublishedQueue(app: "a", queue: "q", pid: 3, started: 1, socket: "/s", viewers: 0))
        connecting.throughput = []
        var reader = RelayListReader()
        let text =
            RelayList.roundEnd(apps: 0, time: 5) + FleetLines.text([connecting], host: "h")
            + RelayList.roundEnd(apps: 1, time: 6)
        let rounds = try reader.read(Array(text.utf8)).get()
        #expect(rounds.map(\.entries.count) == [0, 1])
        #expect(rounds.last?.entries.first == connecting)
    }

    @Test func linesThatAreNoEntryAreSkipped() throws {
        let good = FleetLines.line(Self.entry(pid: 1), host: "h")
        let bad = [
            "not json", "[1]", #"{"app":"a"}"#,
            good.replacingOccurrences(of: #""pid":1"#, with: #""pid":-1"#),
            good.replacingOccurrences(of: #""state":"live""#, with: #""state":"odd""#),
            good.replacingOccurrences(
                of: #""app":"AppExample""#, with: #""app":"\#(String(repeating: "x", count: 256))""#),
        ]
        var reader = RelayListReader()
        let text = bad.joined(separator: "\n") + "\n" + good + RelayList.roundEnd(apps: 1, time: 1)
        let rounds = try reader.read(Array(text.utf8)).get()
        #expect(rounds.map(\.entries.count) == [1])
    }

    @Test func aNegativeCountDropsTheCountsAndTooManyThroughputSamplesAreCut() throws {
        var line = FleetLines.line(Self.entry(pid: 1), host: "h")
        line = line.replacingOccurrences(of: #""failed":0"#, with: #""failed":-4"#)
        line = line.replacingOccurrences(
            of: "[0.500,2.000]", with: "[" + Array(repeating: "1", count: 100).joined(separator: ",") + ",-1]")
        var reader = RelayListReader()
        let round = try #require(try reader.read(Array((line + RelayList.roundEnd(apps: 1, time: 1)).utf8)).get().first)
        let entry = try #require(round.entries.first)
        #expect(entry.counts == nil)
        #expect(entry.throughput.count == FleetEntry.throughputSamples)
    }

    @Test func aLongLineOrTooManyAppsEndTheReading() {
        var long = RelayListReader()
        let endless = [UInt8](repeating: UInt8(ascii: "x"), count: RelayListReader.lineLimit + 1)
        #expect(long.read(endless) == .failure(.init(description: "the host sent a line longer than 16384 bytes")))

        var many = RelayListReader()
        let line = Array(FleetLines.line(Self.entry(pid: 1), host: "h").utf8)
        var bytes: [UInt8] = []
        for _ in 0...RelayListReader.appLimit { bytes += line }
        #expect(many.read(bytes) == .failure(.init(description: "the host listed more than 1000 apps in a round")))
    }

    @Test func lastSeenIsAsLongAgoAsTheHostSaidWhateverItsClockReads() {
        let round = RelayListReader.Round(entries: [Self.entry(pid: 1, lastSeen: 5_000)], time: 5_003)
        #expect(HostWatcher.onThisClock(round, now: 100).first?.lastSeen == 97)
        // A host whose app answered "after" its round: no time in the future.
        let ahead = RelayListReader.Round(entries: [Self.entry(pid: 1, lastSeen: 5_010)], time: 5_003)
        #expect(HostWatcher.onThisClock(ahead, now: 100).first?.lastSeen == 100)
    }
}

/// How a host's apps become the fleet list's rows and lines.
@Suite struct FleetHostsTests {
    private static func host(_ text: String, label: String = "db") throws -> HostsFile.Host {
        HostsFile.Host(label: label, address: try #require(SSHAddress(parsing: text)), line: 1)
    }

    private static func entry(_ app: String, _ queue: String) -> FleetEntry {
        FleetEntry(
            published: PublishedQueue(app: app, queue: queue, pid: 9, started: 1, socket: "/s/\(app)", viewers: 0))
    }

    @Test func aHostAddressWithANameListsOnlyTheAppsItPicks() throws {
        var report = HostWatcher.Report()
        report.entries = [Self.entry("A", "images"), Self.entry("B", "mail"), Self.entry("C", "images")]
        let all = try Self.host("ssh://db:2222")
        #expect(FleetHosts.entries(of: all, report).count == 3)
        #expect(FleetHosts.entries(of: try Self.host("ssh://db/images"), report).map(\.published.app) == ["A", "C"])
        #expect(FleetHosts.entries(of: try Self.host("ssh://db/B"), report).map(\.published.app) == ["B"])
    }

    @Test func anAppsTargetIsItsHostsAddressWithItsLabelOrNoneWhenTheNameCannotBeOne() throws {
        let host = try Self.host("ssh://ops@db:2222/images")
        let app = Self.entry("A", "images")
        #expect(FleetHosts.target(app, on: host, among: [app])?.description == "ssh://ops@db:2222/A/images")
        #expect(FleetHosts.target(Self.entry("my app", "images"), on: host, among: []) == nil)
        #expect(FleetHosts.target(Self.entry("-o", "x"), on: host, among: []) == nil)
        // One app/queue running twice there: the pid picks the instance.
        var twin = app
        twin.published.pid = 10
        #expect(
            FleetHosts.target(app, on: host, among: [app, twin])?.description == "ssh://ops@db:2222/A/images@9")
        #expect(AttachCommand.withPID("A/images@9").map { $0.name == "A/images" && $0.pid == 9 } == true)
        #expect(AttachCommand.withPID("A/images@x") == nil)
        #expect(AttachCommand.withPID("@9") == nil)
    }

    @Test func aHostWithoutAListIsOneRowWithWhyAndOneUnreachableLine() throws {
        let hosts = FleetHosts([try Self.host("ssh://db:2222")])
        let rows = hosts.rows(now: 0).rows
        #expect(rows.count == 1)
        #expect(rows.first?.note == "connecting (ssh://db:2222)")
        let (text, unreachable) = hosts.lines(timeout: .seconds(17))
        #expect(unreachable == 1)
        #expect(
            text
                == #"{"host":"db","address":"ssh://db:2222","state":"unreachable","error":"no list from the host in 17 s"}"#
                + "\n")
    }
}
