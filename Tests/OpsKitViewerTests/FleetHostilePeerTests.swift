import Foundation
import OpsMonitor
import OpsKitTesting
import Testing

@_spi(OpsDashInternals) @testable import OpsKitViewer

/// The fleet list's connections read a peer's lines as hostile: a status with a negative count
/// is not used, an endless line closes the link, and nothing waits past the round's timeout.
@Suite(.ownThread) struct FleetHostilePeerTests {
    /// A runtime directory holding the sidecar of a fake publisher (this process's pid, so it
    /// counts as alive) that answers with `lines`.
    static func fleet(answering lines: [String]) throws -> (directory: String, fake: FakePublisher) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-fleet-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fake = try FakePublisher(unixIn: directory, lines: lines, after: 2)
        guard case .unix(let socket) = fake.target else { throw POSIXError(.EINVAL) }
        try PublishedQueue(app: "fake", queue: "q", pid: Int(getpid()), started: 1, socket: socket, viewers: 0)
            .write(to: directory + "/fake.q.\(getpid()).json")
        return (directory, fake)
    }

    static let welcome =
        #"{"event":"welcome","protocol":1,"app":"fake","queue":"q","pid":1,"role":"controller","epoch":"e","seq":0,"resumed":false}"#

    @Test func aStatusWithANegativeCountIsNotUsed() throws {
        let (directory, fake) = try Self.fleet(answering: [
            Self.welcome,
            #"{"t":2,"event":"status","suspended":true,"limit":2,"waiting":5,"ready":0,"executing":1,"succeeded":0,"failed":3,"cancelled":0,"viewers":9}"#,
            #"{"t":3,"event":"status","suspended":false,"limit":2,"waiting":-5,"ready":0,"executing":1,"succeeded":0,"failed":0,"cancelled":0,"viewers":0}"#,
        ])
        defer {
            fake.waitUntilDone()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let entries = FleetWatcher.once(in: directory, timeout: .seconds(10))
        #expect(entries.count == 1)
        #expect(entries.first?.presence == .live)
        #expect(entries.first?.controlAllowed == true)
        #expect(entries.first?.counts == StateCounts(waiting: 5, executing: 1, failed: 3))
        #expect(entries.first?.viewers == 9)
        #expect(entries.first?.suspended == true)
    }

    @Test func anEndlessLineClosesTheLinkWithoutAnAnswer() throws {
        let endless = String(repeating: "x", count: 70_000)
        let (directory, fake) = try Self.fleet(answering: [Self.welcome + "\n" + endless])
        defer {
            fake.waitUntilDone()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let entries = FleetWatcher.once(in: directory, timeout: .seconds(10))
        #expect(entries.first?.presence == .connecting, "no answer counted")
        #expect(entries.first?.counts == nil)
        #expect(entries.first?.controlAllowed == true, "the welcome before it was read")
    }
}
