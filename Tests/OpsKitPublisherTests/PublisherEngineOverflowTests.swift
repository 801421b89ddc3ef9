import Foundation
import Logging
import NIOCore
import NIOEmbedded
import OpsKit
import OpsMonitor
import OpsKitTesting
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// The publisher's engine against a real monitor and an in-memory channel: when draining the
/// monitor (which first applies the changes it recorded) brings more events than the
/// publisher's reader holds, what was drained is not sent (it stops short of the changes after
/// it); viewers are told `resync` (reason `burst`) and get pictures instead.
@Suite(.ownThread) struct PublisherEngineOverflowTests {
    /// The lines written to `channel` so far.
    private func lines(_ channel: EmbeddedChannel) throws -> [String] {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text.split(separator: "\n").map(String.init)
    }

    @Test func eventsDrainedPastTheReadersLimitAreNotSentButStartABurst() throws {
        var configuration = PublisherCore.Configuration()
        configuration.ringCapacity = 64  // the reader holds 32 events
        configuration.burstRate = .greatestFiniteMagnitude  // never a burst by rate
        let core = PublisherCore(
            identity: .init(app: "test", queue: "q", pid: 42, epoch: "e1"), configuration: configuration)
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        defer {
            monitor.stop()
            queue.cancelAllOperations()
            queue.isSuspended = false
        }
        let engine = PublisherEngine(monitor: monitor, core: core, logger: Logger(label: "test"))
        let channel = EmbeddedChannel()
        let id = engine.connect(channel, peer: .local(uid: getuid()))
        engine.receive(id, ByteBuffer(string: #"{"cmd":"hello","min":1,"max":1}"#))
        engine.pump(sendingNow: true)
        let joined = try lines(channel)
        #expect(joined.contains { $0.contains(#""event":"snapshot_end""#) }, "\(joined)")

        // 100 operations in one batch: recorded, not applied (fewer than a background apply
        // waits for), so the reader has not overflowed yet when the pump looks; draining
        // applies them: 200 events for a reader that holds 32.
        queue.addOperations((0..<100).map { _ in ClosureOperation {} }, waitUntilFinished: false)
        engine.pump(sendingNow: true)
        let after = try lines(channel)
        #expect(!after.contains { $0.contains(#""event":"added""#) }, "no partial deltas: \(after.prefix(3))")
        #expect(after.contains { $0.hasPrefix(#"{"event":"resync","reason":"burst""#) }, "\(after)")
        #expect(engine.core.isInBurst)
    }
}
