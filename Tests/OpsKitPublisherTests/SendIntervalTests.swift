import Foundation
import OpsKit
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
import RemoteTestSupport

/// Viewers are written to at most every `sendInterval` while changes trickle in, and
/// everything waiting is sent before `bye` when the app stops.
@Suite(.serialized) struct SendIntervalTests {
    /// A publisher pumping every 5 ms but writing trickles at most every `interval`, and a raw
    /// client that said hello and read its keyframe.
    private func published(interval: Duration) throws -> (Published, LineClient) {
        let published = try Published { $0.sendInterval = interval }
        try published.publisher.start()
        let client = try LineClient(.unix(published.publisher.socketPath))
        client.send(#"{"cmd":"hello","min":1,"max":1}"# + "\n")
        #expect(client.line(containing: "snapshot_end") != nil)
        return (published, client)
    }

    /// Adds an operation to the (suspended) queue: one `added` line.
    private func add(_ name: String, to published: Published) {
        published.queue.addOperation(ClosureOperation(name: name) {})
    }

    @Test func aTrickleWaitsForTheIntervalAfterTheFirstChange() throws {
        let (published, client) = try published(interval: .seconds(1))
        add("first", to: published)
        #expect(client.line(containing: #""op":"first""#) != nil, "the first change after quiet goes out")
        let sentFirst = ContinuousClock.now
        add("second", to: published)
        // Within the interval the second change is held back (a lower bound: load only delays it more).
        #expect(client.line(containing: #""op":"second""#, timeout: .milliseconds(300)) == nil)
        #expect(client.line(containing: #""op":"second""#, timeout: .seconds(10)) != nil)
        #expect(ContinuousClock.now - sentFirst >= .milliseconds(900))
    }

    @Test func stoppingSendsWhatWaitsBeforeBye() throws {
        let (published, client) = try published(interval: .seconds(60))
        // The keyframe was a write: for a minute, new lines wait.
        add("held", to: published)
        #expect(client.line(containing: #""op":"held""#, timeout: .milliseconds(300)) == nil)
        published.publisher.stop()
        var lines: [String] = []
        while let line = client.line(timeout: .seconds(5)) {
            lines.append(line)
            if line.contains(#""event":"bye""#) { break }
        }
        let held = try #require(lines.firstIndex { $0.contains(#""op":"held""#) }, "\(lines)")
        let bye = try #require(lines.firstIndex { $0.contains(#""event":"bye""#) }, "\(lines)")
        #expect(held < bye, "the held change is sent before bye")
    }
}
