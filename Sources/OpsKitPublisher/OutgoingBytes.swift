import NIOCore

/// Collects what one viewer is sent in a flush: consecutive lines of one ring batch become one
/// slice of it, other lines are kept as they are.
struct OutgoingBytes {
    private(set) var buffers: [ByteBuffer] = []
    /// The run of ring lines not added to `buffers` yet.
    private var run: (entry: EventRing.Entry, end: Int)?

    init(_ buffers: [ByteBuffer] = []) {
        self.buffers = buffers
    }

    var isEmpty: Bool { buffers.isEmpty && run == nil }

    /// Adds a line of the ring.
    mutating func append(_ entry: EventRing.Entry) {
        append(entry, through: entry)
    }

    /// Adds the ring's lines from `first` through `last`, both of one batch.
    mutating func append(_ first: EventRing.Entry, through last: EventRing.Entry) {
        let end = last.offset + last.length
        if let current = run, current.entry.batchNumber == first.batchNumber, current.end == first.offset {
            run?.end = end
            return
        }
        endRun()
        run = (first, end)
    }

    /// Adds a line of its own.
    mutating func append(_ line: ByteBuffer) {
        endRun()
        buffers.append(line)
    }

    /// Everything added, in order.
    mutating func take() -> [ByteBuffer] {
        endRun()
        defer { buffers = [] }
        return buffers
    }

    private mutating func endRun() {
        guard let (entry, end) = run else { return }
        run = nil
        let batch = entry.batch
        if let slice = batch.getSlice(at: batch.readerIndex + entry.offset, length: end - entry.offset) {
            buffers.append(slice)
        }
    }
}
