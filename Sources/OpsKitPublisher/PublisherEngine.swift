import Logging
import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

/// The publisher's state on its event loop: the protocol core, the open channels and the
/// monitor it drains. Used only on that loop (it lives in a `NIOLoopBoundBox`).
final class PublisherEngine {
    let monitor: QueueMonitor
    /// This publisher's own copy of the monitor's events (other consumers have theirs).
    private let events: MonitorEventReader
    private(set) var core: PublisherCore
    private var channels: [Int: Channel] = [:]
    private var lastWrite: [Int: EventLoopFuture<Void>] = [:]
    private var nextID = 1
    private let origin = ContinuousClock.now
    private let logger: Logger
    private var viewers = 0
    /// Called with the number of streaming viewers when it changes.
    var onViewersChanged: (Int) -> Void = { _ in }

    /// Viewers are written to at most this often while lines trickle in (see `pump`).
    private let sendInterval: Duration
    /// When a pump last wrote new lines to viewers.
    private var lastSend: Duration?
    /// Whether changes come faster than viewers can follow.
    private(set) var burst: BurstDetector
    /// When viewers last got a picture during the current burst.
    private var lastBurstKeyframe: Duration = .zero

    init(monitor: QueueMonitor, core: PublisherCore, logger: Logger, sendInterval: Duration = .zero) {
        self.monitor = monitor
        // More events between two pumps than half the ring holds is a burst (below): the
        // monitor keeps no more than that for this publisher (all of them with bursts off).
        let bursts = core.configuration.burstRate > 0
        self.events = monitor.makeEventReader(limit: bursts ? core.configuration.ringCapacity / 2 : .max)
        self.core = core
        self.logger = logger
        self.sendInterval = sendInterval
        // More changes than half the ring holds, faster than `burstRate`: a burst.
        self.burst = BurstDetector(
            rate: core.configuration.burstRate, minimumChanges: core.configuration.ringCapacity / 2,
            span: core.configuration.burstCalmSpan)
    }

    private var now: Duration { ContinuousClock.now - origin }

    /// Whether the monitor records events for this publisher (only while someone is connected).
    private var recording = false

    /// Drains the monitor into the ring and sends what viewers can take (`sendingNow`: whatever
    /// the interval). With nobody connected the monitor records nothing: watching costs the app
    /// only the monitor itself.
    func pump(sendingNow: Bool = false) {
        if core.hasConnections != recording {
            recording = core.hasConnections
            if recording {
                events.setReading(true)
                core.recordingResumed()
            } else {
                events.stopReading()
            }
            burst.reset(at: now)
            changesSeen = monitor.changeCount
        }
        guard recording else {
            perform(core.flush(now: now))
            return
        }
        // Bursts are told from the monitor's count of recorded changes, before anything is
        // drained: draining applies every change first, which a starved low-priority thread
        // might never finish while the app keeps changing faster.
        let time = now
        let changes = monitor.changeCount
        let decided = burst.count(Int(clamping: changes &- changesSeen), at: time)
        changesSeen = changes
        if core.isInBurst {
            pumpDuringBurst(calm: decided && !burst.isInBurst, at: time)
            return
        }
        let overflowed = events.hasOverflowed
        if overflowed { burst.begin(at: time) }
        if overflowed || (decided && burst.isInBurst) {
            // Faster than any viewer follows (leaving the changes not applied yet to the
            // monitor's applier instead of applying them on this thread now).
            startBurst(dropping: [], at: time)
            return
        }
        let keyframe = core.needsKeyframe
        guard drainAndPublish(at: time) else { return }
        // Every pump drains the monitor, but viewers are written to only when `sendInterval`
        // has passed since the last write (so a change after a quiet spell goes at once), when
        // some viewer has half a flush's worth of lines waiting, when a keyframe is due, or at
        // shutdown: each viewer then costs the app one write (and one wake-up of the viewer)
        // per interval, not one per pump.
        let written = now
        let waiting = core.deltasWaiting
        let due = lastSend.map { written - $0 >= sendInterval } ?? true
        guard sendingNow || keyframe || due || waiting >= UInt64(core.configuration.batchLines / 2) else { return }
        if waiting > 0 || keyframe { lastSend = written }
        perform(core.flush(now: written))
    }

    /// The monitor's count of recorded changes at the last pump.
    private var changesSeen: UInt64 = 0

    /// Drains the monitor's events (with a picture when a viewer waits for one) and publishes
    /// them; false when draining overflowed this reader instead, which starts a burst. Draining
    /// first applies what the monitor recorded but did not apply yet, which can be more than
    /// the reader holds (the publisher's and the applier's nice-19 threads both starved while
    /// the app changed slower than the burst rate): the events drained then stop short of the
    /// changes made after them, and sending them would show viewers a picture missing those.
    private func drainAndPublish(at time: Duration) -> Bool {
        let drained: [MonitorEvent]
        let snapshot: QueueSnapshot?
        if core.needsKeyframe {
            (drained, snapshot) = events.drainWithSnapshot()
        } else {
            (drained, snapshot) = (events.drain(), nil)
        }
        if events.hasOverflowed {
            burst.begin(at: time)
            startBurst(dropping: drained, at: time)
            return false
        }
        core.publish(drained, snapshot: snapshot, monitorTime: snapshot?.time ?? monitor.now)
        return true
    }

    /// Faster than any viewer follows: stops recording, tells viewers (`dropping` the events
    /// drained but not sent), and sends pictures from now on.
    private func startBurst(dropping drained: [MonitorEvent], at time: Duration) {
        events.stopReading()
        core.beginBurst(dropping: drained, monitorTime: monitor.now)
        lastBurstKeyframe = time
        perform(core.flush(now: time))
    }

    /// During a burst: gives viewers a picture every `burstKeyframeInterval`, and once the
    /// rate fell (`calm`), a last picture that the recording (on again) continues from.
    private func pumpDuringBurst(calm: Bool, at time: Duration) {
        if calm {
            endBurst()
            lastSend = time
        } else if time - lastBurstKeyframe >= core.configuration.burstKeyframeInterval {
            core.burstKeyframe(monitor.snapshot())
            lastBurstKeyframe = time
        }
        perform(core.flush(now: time))
    }

    /// Ends the burst: recording goes on again, and the picture it starts from is every
    /// viewer's keyframe.
    private func endBurst() {
        core.endBurst(snapshot: events.setReading(true))
    }

    func connect(_ channel: Channel, peer: PublisherCore.Peer) -> Int {
        let id = nextID
        nextID += 1
        channels[id] = channel
        core.connect(id, peer: peer, now: now)
        logger.debug("viewer connected", metadata: ["id": "\(id)", "peer": "\(peer)"])
        return id
    }

    func receive(_ id: Int, _ line: ByteBuffer) {
        perform(core.receive(id, line: line.readableBytesView, now: now))
        countViewers()
    }

    func lineTooLong(_ id: Int) {
        perform(core.lineTooLong(id))
    }

    func disconnect(_ id: Int) {
        channels[id] = nil
        lastWrite[id] = nil
        core.disconnect(id)
        countViewers()
    }

    func setWritable(_ id: Int, _ writable: Bool) {
        core.setWritable(id, writable)
        if writable { perform(core.flush(now: now)) }
    }

    /// Says goodbye to every viewer; the future completes when their connections closed.
    func shutdown(reason: String, on loop: EventLoop) -> EventLoopFuture<Void> {
        pump(sendingNow: true)
        if core.isInBurst {
            // Viewers keep the last picture they get: the final one, not one from early in the
            // burst (which may have started in that last pump).
            endBurst()
            perform(core.flush(now: now))
        }
        perform(core.shutdown(reason: reason))
        let closing = channels.values.map(\.closeFuture)
        return EventLoopFuture.andAllComplete(closing, on: loop)
    }

    private func countViewers() {
        let count = core.viewerCount
        if count != viewers {
            viewers = count
            onViewersChanged(count)
        }
    }

    private func perform(_ outputs: [PublisherCore.Output]) {
        for output in outputs {
            switch output {
            case .send(let id, let lines):
                guard let channel = channels[id], !lines.isEmpty else { continue }
                for line in lines.dropLast() { channel.write(line, promise: nil) }
                if let last = lines.last { lastWrite[id] = channel.writeAndFlush(last) }
            case .sendLaterAndClose(let id, let lines, let delay):
                guard let channel = channels[id] else { continue }
                channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay.seconds * 1e9))) {
                    for line in lines { channel.write(line, promise: nil) }
                    channel.flush()
                    channel.close(promise: nil)
                }
            case .close(let id):
                guard let channel = channels[id] else { continue }
                if let last = lastWrite[id] {
                    last.whenComplete { _ in channel.close(promise: nil) }
                } else {
                    channel.close(promise: nil)
                }
            case .status(let id, let request):
                let summary = monitor.summary()
                let status = PublisherMessage.Status(
                    request: request, time: summary.time, suspended: summary.suspended, limit: summary.limit,
                    counts: summary.counts, viewers: core.viewerCount)
                perform([.send(id, [PublisherMessage.status(status).buffer])])
            case .execute(let id, let command, let request):
                let before = RemoteCommand.Before(command, on: monitor)
                command.perform(on: monitor)
                _ = drainAndPublish(at: now)
                logger.info("\(command.audit(by: core.who(id), before: before))")
                perform(core.commandDone(id, command, request: request, before: before))
                perform(core.flush(now: now))
            }
        }
    }
}
