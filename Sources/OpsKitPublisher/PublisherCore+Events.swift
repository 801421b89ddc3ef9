import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

extension PublisherCore {
    // MARK: Events

    /// Appends the monitor's new events to the ring (each encoded once, numbered), at monitor
    /// time `monitorTime`. With `snapshot` (taken together with the events), viewers waiting
    /// for a keyframe get one consistent with the new head.
    @_spi(OpsDashInternals) public mutating func publish(
        _ events: [MonitorEvent], snapshot: QueueSnapshot?, monitorTime: Duration
    ) {
        self.monitorTime = max(self.monitorTime, monitorTime)
        if !hasConnections {
            // Nobody to send to: keep the numbering and the bookkeeping, skip the encoding.
            skip(events)
            return
        }
        if encoderIsCold, let snapshot { teachNames(from: snapshot) }
        // Lines are encoded as bytes straight into batches of up to `batchBytes` (one buffer
        // each, shared by every viewer), numbered from the ring's head on.
        var batch: [UInt8] = []
        swap(&batch, &encodeBuffer)
        defer {
            batch.removeAll(keepingCapacity: true)
            swap(&batch, &encodeBuffer)
        }
        batch.reserveCapacity(min(Self.batchBytes, events.count * 200) + 1_024)
        var lines: [EventRing.Line] = []
        var seq = ring.head
        for event in events {
            let start = batch.count
            var progressOf: Int?
            switch event {
            case .added(_, let id, _, _, _, _, _): unfinished.insert(id)
            case .state(_, let id, _, .finished, _, _): unfinished.remove(id)
            case .progress(_, let id, _, _, _, _, _, _): progressOf = id
            default: break
            }
            guard PublisherMessage.appendDelta(event, seq: seq + 1, encoder: &encoder, to: &batch) else { continue }
            seq += 1
            lines.append(EventRing.Line(length: batch.count - start, progressOf: progressOf))
            if batch.count >= Self.batchBytes {
                ring.append(batch: ByteBuffer(bytes: batch), lines: lines)
                batch.removeAll(keepingCapacity: true)
                lines.removeAll(keepingCapacity: true)
            }
        }
        if !lines.isEmpty { ring.append(batch: ByteBuffer(bytes: batch), lines: lines) }
        if let snapshot, needsKeyframe { sendKeyframe(snapshot) }
    }

    /// Teaches the encoder the names of the unfinished operations in `snapshot` (added while
    /// nothing was encoded), for the state lines to come.
    mutating func teachNames(from snapshot: QueueSnapshot) {
        encoder = JSONLinesEncoder(progressInterval: .zero)
        var scratch: [UInt8] = []
        for op in snapshot.operations where op.lifecycle != .finished {
            encoder.encode(
                .added(
                    time: op.addedAt, id: op.id, name: op.name, kind: op.kind, totalBytes: op.totalUnits,
                    dependencies: []), into: &scratch)
            scratch.removeAll(keepingCapacity: true)
        }
        encoderIsCold = false
    }

    /// Numbers `events` and keeps the bookkeeping without encoding them (nobody would read
    /// them): operation names come from the next keyframe.
    mutating func skip(_ events: [MonitorEvent]) {
        for event in events {
            switch event {
            case .added(_, let id, _, _, _, _, _): unfinished.insert(id)
            case .state(_, let id, _, .finished, _, _): unfinished.remove(id)
            default: break
            }
        }
        ring.skip(events.count)
        encoderIsCold = encoderIsCold || !events.isEmpty
    }

    /// Gives every viewer that waits for one a keyframe of `snapshot` at the ring's head (one
    /// buffer, shared); during a burst, every streaming viewer, each told first by a `resync`
    /// if it is not waiting for one already.
    mutating func sendKeyframe(_ snapshot: QueueSnapshot) {
        unfinished = OperationIDSet(snapshot.operations.lazy.filter { $0.lifecycle != .finished }.map(\.id))
        // One buffer for the whole keyframe, shared by every viewer that waits for it; written
        // once into the shared-memory stream for those that read it (no copy per viewer).
        let keyframe = ByteBuffer(bytes: KeyframeEncoder.bytes(snapshot, seq: ring.head))
        var streamPosition: UInt64??
        for (id, var connection) in connections {
            guard connection.isStreamingViewer, connection.wantsKeyframe || isInBurst else { continue }
            var lines: [ByteBuffer] = []
            if let notice = connection.notice {
                lines.append(notice)
            } else if !connection.wantsKeyframe {
                lines.append(resyncLine(Self.burstReason))
                counted.resyncs[Self.burstReason, default: 0] += 1
            }
            connection.notice = nil
            connection.wantsKeyframe = false
            connection.keyframeInStream = false
            // A viewer that asked for the stream and its snapshots reads this one there, also
            // if it was not told where the stream goes on yet (it asked during a burst, or
            // while the app kept this thread busy): the snapshot says where.
            if connection.shared != .off, connection.sharedSnapshots {
                if streamPosition == nil { streamPosition = ring.appendToStreamOnly(keyframe) }
                if let position = streamPosition ?? nil {
                    lines.append(Self.sharedStreamLine(position: position, seq: ring.head, snapshot: true))
                    connection.keyframeInStream = true
                    connection.shared = .on
                }
            }
            connection.pending = connection.keyframeInStream ? lines : lines + [keyframe]
            connection.cursor = ring.head + 1
            connections[id] = connection
        }
    }

    /// Sends what each writable viewer has not had yet (keyframe lines, then deltas from its
    /// cursor, leaving out superseded progress while it lags), heartbeats to idle viewers, and
    /// closes connections that said no hello in time.
    @_spi(OpsDashInternals) public mutating func flush(now: Duration) -> [Output] {
        var outputs: [Output] = []
        for id in connections.keys.sorted() {
            guard var connection = connections[id] else { continue }
            switch connection.phase {
            case .closed:
                continue
            case .hello(let deadline):
                if now >= deadline {
                    connection.phase = .closed
                    let seconds = configuration.helloTimeout.seconds
                    let text = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
                    outputs.append(.send(id, [Self.byeLine("no hello within \(text) s")]))
                    outputs.append(.close(id))
                }
            case .streaming:
                if let lines = lines(for: &connection, now: now), !lines.isEmpty {
                    outputs.append(.send(id, lines))
                    connection.lastSent = now
                }
            }
            connections[id] = connection
        }
        return outputs
    }

    /// What `connection` is sent at this pump (nil: nothing): while it waits for a keyframe, why
    /// and heartbeats; otherwise what is pending (a keyframe), then where its deltas are in the
    /// shared-memory stream, a resync when it fell off the ring, or its deltas.
    mutating func lines(for connection: inout Connection, now: Duration) -> [ByteBuffer]? {
        guard connection.writable else { return nil }
        if connection.summaryOnly {
            return now - connection.lastSent >= configuration.heartbeat ? [heartbeatLine()] : nil
        }
        if connection.wantsKeyframe {
            // Waiting: only why (during a burst, which can last) and that the app is alive.
            guard isInBurst else { return nil }
            defer { connection.notice = nil }
            if let notice = connection.notice { return [notice] }
            return now - connection.lastSent >= configuration.heartbeat ? [heartbeatLine()] : nil
        }
        var lines = OutgoingBytes(connection.pending)
        let sentKeyframe = !connection.pending.isEmpty
        connection.pending = []
        if connection.shared == .on, !sentKeyframe || connection.keyframeInStream {
            // Deltas (and keyframes that fit) come from the shared-memory stream; the socket
            // carries only heartbeats, resyncs and where a keyframe starts.
            connection.keyframeInStream = false
            connection.cursor = ring.head + 1
            if lines.isEmpty, now - connection.lastSent >= configuration.heartbeat { lines.append(heartbeatLine()) }
            return lines.take()
        }
        if connection.cursor < ring.first {
            connection.wantsKeyframe = true
            counted.resyncs["lagged", default: 0] += 1
            lines.append(resyncLine("lagged"))
            return lines.take()
        }
        if connection.shared != .off, let position = ring.streamPosition(of: connection.cursor) {
            // Asked for the shared-memory stream, or a snapshot was just sent: say where the
            // next delta starts there.
            lines.append(Self.sharedStreamLine(position: position, seq: connection.cursor - 1))
            connection.shared = .on
            connection.cursor = ring.head + 1
            return lines.take()
        }
        appendDeltas(for: &connection, to: &lines)
        if lines.isEmpty, now - connection.lastSent >= configuration.heartbeat { lines.append(heartbeatLine()) }
        return lines.take()
    }

    /// Appends the ring's entries from `connection`'s cursor on, at most `batchLines` of them,
    /// and moves the cursor past them. For a connection more than `coalesceLag` behind, progress
    /// lines a later one superseded are left out, each run of them said in one `skipped` line.
    private func appendDeltas(for connection: inout Connection, to lines: inout OutgoingBytes) {
        let coalesce =
            ring.head >= connection.cursor && ring.head - connection.cursor >= UInt64(configuration.coalesceLag)
        var skippedFrom: UInt64?
        var count = 0
        while connection.cursor <= ring.head, count < configuration.batchLines,
            let entry = ring.entry(connection.cursor)
        {
            if !coalesce || !entry.batchHasProgress {
                // Nothing to leave out: the rest of the batch (up to the limit) as one slice.
                var last = min(entry.batchLast, connection.cursor + UInt64(configuration.batchLines - count) - 1)
                let end = ring.entry(last)
                if end == nil { last = entry.seq }
                if let from = skippedFrom {
                    lines.append(Self.skippedLine(from: from, to: entry.seq - 1))
                    skippedFrom = nil
                }
                lines.append(entry, through: end ?? entry)
                count += Int(last - entry.seq) + 1
                connection.cursor = last + 1
                continue
            }
            if entry.superseded {
                if skippedFrom == nil { skippedFrom = entry.seq }
            } else {
                if let from = skippedFrom {
                    lines.append(Self.skippedLine(from: from, to: entry.seq - 1))
                    skippedFrom = nil
                }
                lines.append(entry)
                count += 1
            }
            connection.cursor += 1
        }
        if let from = skippedFrom { lines.append(Self.skippedLine(from: from, to: connection.cursor - 1)) }
    }

    /// Says goodbye to every connection and closes them.
    @_spi(OpsDashInternals) public mutating func shutdown(reason: String) -> [Output] {
        var outputs: [Output] = []
        for id in connections.keys.sorted() {
            if case .closed = connections[id]?.phase { continue }
            outputs.append(.send(id, [Self.byeLine(reason)]))
            outputs.append(.close(id))
            connections[id]?.phase = .closed
        }
        return outputs
    }
}
