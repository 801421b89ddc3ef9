import Foundation
import OpsKitTesting
import Testing
@_spi(OpsDashInternals) @testable import OpsKitViewer
import RemoteTestSupport

/// The disconnected header counts down to the viewer's next connection attempt: the status keeps
/// the attempt's instant and the text is worked out when read.
@Suite(.ownThread) struct ViewerStatusTests {
    private let lost = ContinuousClock.now

    private func status(retryingAfter backoff: Duration?) -> RemoteViewer.Status {
        RemoteViewer.Status(
            link: .disconnected, detail: "app went away", welcome: nil, nextAttempt: backoff.map { lost + $0 })
    }

    @Test func theTextCountsDownToTheNextAttemptInWholeSeconds() {
        let status = status(retryingAfter: .seconds(4))
        #expect(status.text(at: lost) == "app went away; retrying in 4 s")
        #expect(status.text(at: lost + .milliseconds(500)) == "app went away; retrying in 4 s")
        #expect(status.text(at: lost + .seconds(1)) == "app went away; retrying in 3 s")
        #expect(status.text(at: lost + .milliseconds(2_100)) == "app went away; retrying in 2 s")
        #expect(status.text(at: lost + .milliseconds(3_999)) == "app went away; retrying in 1 s")
        #expect(status.text(at: lost + .seconds(4)) == "app went away; retrying now")
        #expect(status.text(at: lost + .seconds(9)) == "app went away; retrying now")
    }

    @Test func aBackoffUnderASecondReadsAsOneSecond() {
        #expect(status(retryingAfter: .milliseconds(250)).text(at: lost) == "app went away; retrying in 1 s")
    }

    @Test func withNoAttemptPlannedTheTextIsTheDetail() {
        #expect(status(retryingAfter: nil).text(at: lost) == "app went away")
        #expect(status(retryingAfter: nil).countdown(at: lost) == nil)
    }

    /// What a narrow header shows: the countdown without the reason.
    @Test func theCountdownAloneIsTheTextsEnd() {
        let status = status(retryingAfter: .seconds(2))
        #expect(status.countdown(at: lost) == "retrying in 2 s")
        #expect(status.countdown(at: lost + .milliseconds(1_500)) == "retrying in 1 s")
        #expect(status.countdown(at: lost + .seconds(2)) == "retrying now")
    }

    @Test func aViewerWhoseAppStoppedPlansItsNextAttemptAndCountsDownToIt() throws {
        let published = try Published()
        try published.publisher.start()
        let viewer = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: true)
        #expect(viewer.start() == nil)
        defer { viewer.stop() }
        try #require(eventually(timeout: .seconds(10)) { viewer.status.link == .connected })
        #expect(viewer.status.nextAttempt == nil)
        published.publisher.stop()
        try #require(eventually(timeout: .seconds(10)) { viewer.status.nextAttempt != nil })
        let status = viewer.status
        let next = try #require(status.nextAttempt)
        #expect(status.link == .disconnected)
        let gone = "app shutting down"
        #expect(status.detail == gone)
        #expect(viewer.socketGone == "socket \(published.publisher.socketPath) gone: the app stopped publishing")
        #expect(status.text(at: next - .milliseconds(100)) == "\(gone); retrying in 1 s")
        #expect(status.text(at: next) == "\(gone); retrying now")
    }
}
