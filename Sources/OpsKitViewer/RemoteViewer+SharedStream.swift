import OpsMonitor

extension RemoteViewer {
    // MARK: The shared-memory stream (local viewers)

    /// Starts or stops reading the shared-memory stream as the protocol says.
    func follow(_ outputs: [ViewerCore.Output], _ shared: inout SharedStreamCursor, _ descriptor: Int32) {
        let wasReading = shared.isReading
        defer {
            let reading = shared.isReading
            if reading != wasReading { state.withLock { $0.readsSharedStream = reading } }
        }
        for output in outputs {
            switch output {
            case .welcome(let welcome):
                shared = SharedStreamCursor()
                // Only a publisher on a Unix socket shares this host (and uid) with the viewer: a
                // path a TCP peer names is never opened (it may be anything on this host).
                if sharedMemory, let path = welcome.sharedStream, state.withLock({ $0.connectionIsLocal }),
                    let reader = SharedRingReader(path: path)
                {
                    shared.reader = reader
                    _ = write(ViewerCore.sharedStreamRequest, to: descriptor)
                }
            case .sharedStream(let position): shared.position = shared.reader == nil ? nil : position
            case .resyncing: shared.position = nil
            default: break
            }
        }
    }

    /// Applies the lines the shared-memory stream has for this viewer; when it fell behind,
    /// asks for a snapshot once the stream calms down.
    func readSharedStream(_ shared: inout SharedStreamCursor, _ descriptor: Int32) {
        guard let reader = shared.reader else { return }
        if let held = shared.heldResync {
            if shared.calmedDown(end: reader.end, capacity: reader.capacity) {
                shared.heldResync = nil
                _ = write(held, to: descriptor)
            }
            return
        }
        guard var position = shared.position else { return }
        var bytes: [UInt8] = []
        while true {
            bytes.removeAll(keepingCapacity: true)
            switch reader.read(from: &position, into: &bytes) {
            case .caughtUp:
                shared.position = position
                return
            case .lagged:
                // The picture shows "resyncing" at once; the snapshot is asked for when the
                // stream calms down (`SharedStreamCursor.calmedDown`).
                let outputs = state.withLock { $0.core.sharedStreamLagged() }
                for case .send(let text) in outputs { shared.heldResync = text }
                shared.lastEnd = reader.end
                shared.looksWaited = 0
                onOutput?(outputs)
                follow(outputs, &shared, descriptor)
                return
            case .bytes:
                shared.position = position
                var start = 0
                while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    follow(handle(bytes[start..<newline], descriptor), &shared, descriptor)
                    start = newline + 1
                }
                // A line that asked for a resync stops the reading.
                guard let next = shared.position, next == position else { return }
            }
        }
    }
}
