import Foundation
import OpsKit
import OpsKitTesting
import Testing
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// A viewer's waits are kept by its clock: on a `ManualClock`, reconnect attempts, the heartbeat
/// watchdog and reply and first-answer timeouts happen when the test advances it, never on
/// their own; the test waits for their effects.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct ViewerClockTests {
    /// A scripted app in a directory of its own (removed with the rig), a manual clock and a
    /// started viewer of that app on the clock.
    private final class Rig {
        let directory: String
        let app: ScriptedPublisher
        let clock = ManualClock()
        let viewer: RemoteViewer

        init(reconnect: Bool = false, onOutput: (@Sendable ([ViewerCore.Output]) -> Void)? = nil) throws {
            directory =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "opsdash-vc-\(UUID().uuidString)"
                ).path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            chmod(directory, 0o700)
            app = try ScriptedPublisher(in: directory)
            viewer = RemoteViewer(target: .unix(app.path), reconnect: reconnect, clock: clock, onOutput: onOutput)
            #expect(viewer.start() == nil)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The only delay scheduled on `clock` from now, once exactly one is.
    private func nextDelay(on clock: ManualClock) throws -> Duration {
        try #require(eventually(timeout: .seconds(10)) { clock.pendingDeadlines.count == 1 })
        return try #require(clock.pendingDeadlines.first) - clock.now
    }

    /// Ends `viewer` and checks it left nothing on `clock`.
    private func finish(_ viewer: RemoteViewer, on clock: ManualClock) throws {
        viewer.stop()
        viewer.waitUntilFinished()
        try clock.checkNoScheduledWork()
    }

    @Test func anAppThatWentAwayIsRetriedAfterTheBackoffAndFollowedWhenItComesBack() throws {
        let rig = try Rig(reconnect: true)
        let (app, clock, viewer) = (rig.app, rig.clock, rig.viewer)
        let first = try #require(app.accept())
        try #require(eventually(timeout: .seconds(10)) { viewer.status.link == .connected })

        app.goAway()
        first.hangUp()
        try #require(eventually(timeout: .seconds(10)) { viewer.status.nextAttempt != nil })
        #expect(viewer.status.detail == "app went away")
        var waits: [Duration] = []
        for _ in 0..<6 {
            let wait = try nextDelay(on: clock)
            waits.append(wait)
            clock.advance(by: wait)
        }
        // The sixth attempt failed once the seventh is planned: the app comes back only then. (Back
        // earlier, the attempt the clock just made due may connect, and the one delay then
        // scheduled is the connection's heartbeat watchdog, not a backoff.)
        let seventh = try nextDelay(on: clock)
        #expect(waits == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4)])
        #expect(seventh == .seconds(4))
        #expect(viewer.status.link != .connected)

        try app.comeBack()
        clock.advance(by: seventh)
        let second = try #require(app.accept(), "the viewer connected again once the wait passed")
        try #require(eventually(timeout: .seconds(10)) { viewer.status.link == .connected })
        #expect(try nextDelay(on: clock) == HeartbeatWatchdog.silence, "connected, only the watchdog waits")

        app.goAway()
        second.hangUp()
        try #require(eventually(timeout: .seconds(10)) { viewer.status.nextAttempt != nil })
        #expect(try nextDelay(on: clock) == .milliseconds(250), "after a welcome the backoff starts over")
        try finish(viewer, on: clock)
        withExtendedLifetime(rig) {}
    }

    @Test func aSilentAppIsGivenUpSevenSecondsAfterItsLastDataAndNotBefore() throws {
        let lines = Recorder()
        let rig = try Rig(onOutput: { _ in lines.add("line") })
        let (app, clock, viewer) = (rig.app, rig.clock, rig.viewer)
        let connection = try #require(app.accept())
        try #require(eventually(timeout: .seconds(10)) { viewer.status.link == .connected })
        #expect(clock.pendingDeadlines == [.seconds(7)])

        clock.advance(by: .seconds(5))
        connection.send(#"{"event":"heartbeat","seq":0,"t":5}"# + "\n")
        try #require(eventually(timeout: .seconds(10)) { lines.all.count == 2 })
        clock.advance(by: .seconds(2))
        // Due at 7 s, the watchdog finds data from 5 s and waits until 12 s.
        try #require(eventually(timeout: .seconds(10)) { clock.pendingDeadlines == [.seconds(12)] })
        #expect(viewer.status.link == .connected)
        clock.advance(by: .milliseconds(4_999))
        #expect(clock.pendingDeadlines == [.seconds(12)])
        #expect(viewer.status.link == .connected)

        clock.advance(by: .milliseconds(1))
        viewer.waitUntilFinished()
        #expect(viewer.endReason.reason == "no heartbeat from the app")
        #expect(viewer.status.link == .disconnected)
        try clock.checkNoScheduledWork()
        withExtendedLifetime((rig, connection)) {}
    }

    @Test func aCommandTimesOutWhenItsClockPassedTheTimeoutAndEndsWhenItsReplyComes() throws {
        let rig = try Rig()
        let (app, clock, viewer) = (rig.app, rig.clock, rig.viewer)
        let connection = try #require(app.accept())
        try #require(eventually(timeout: .seconds(10)) { viewer.status.link == .connected })

        let result = Slot<Result<UInt64?, RemoteViewer.Refusal>>()
        Thread.detachNewThread {
            let answer = viewer.perform(.suspend, timeout: .seconds(2))
            result.set(answer)
        }
        #expect(connection.line(containing: "suspend") != nil)
        try #require(eventually(timeout: .seconds(10)) { clock.pendingDeadlines == [.seconds(2), .seconds(7)] })
        clock.advance(by: .milliseconds(1_999))
        #expect(result.current == nil)
        clock.advance(by: .milliseconds(1))
        try #require(eventually(timeout: .seconds(10)) { result.current != nil })
        #expect(
            result.current == .failure(.init(code: "timeout", message: "no reply within 2.0 s")))

        result.set(nil)
        Thread.detachNewThread {
            let answer = viewer.perform(.resume, timeout: .seconds(2))
            result.set(answer)
        }
        let command = try #require(connection.line(containing: "resume"))
        #expect(command.contains(#""id":"c2""#))
        connection.send(#"{"event":"reply","id":"c2","ok":true,"seq":0}"# + "\n")
        try #require(eventually(timeout: .seconds(10)) { result.current != nil })
        #expect(result.current == .success(0), "the reply ended the wait, the clock stood still")
        #expect(clock.pendingDeadlines == [.seconds(7)], "the answered command's timeout was cancelled")
        try finish(viewer, on: clock)
        withExtendedLifetime((rig, connection)) {}
    }

    @Test func theFirstAnswerIsNoneOnceItsTimeoutPassedOnTheClockAndTheWelcomeOnceItCame() throws {
        let rig = try Rig()
        let (app, clock, viewer) = (rig.app, rig.clock, rig.viewer)
        let connection = try #require(app.accept(welcoming: false))

        let answer = Slot<RemoteViewer.FirstAnswer>()
        Thread.detachNewThread {
            let first = viewer.waitForFirstAnswer(timeout: .seconds(3))
            answer.set(first)
        }
        try #require(eventually(timeout: .seconds(10)) { clock.pendingDeadlines == [.seconds(3), .seconds(7)] })
        #expect(answer.current == nil)
        clock.advance(by: .seconds(3))
        try #require(eventually(timeout: .seconds(10)) { answer.current != nil })
        #expect(answer.current == RemoteViewer.FirstAnswer.none)

        connection.send(ScriptedPublisher.welcome + "\n")
        #expect(viewer.waitForFirstAnswer(timeout: .seconds(3)) == .welcome)
        try finish(viewer, on: clock)
        withExtendedLifetime((rig, connection)) {}
    }
}
