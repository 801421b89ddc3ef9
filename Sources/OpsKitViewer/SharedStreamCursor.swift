/// A viewer's place in the publisher's shared-memory stream: the mapping (once `welcome`
/// offered one and it could be opened) and the position of the next delta (once the publisher
/// said where it starts; nil while a snapshot is awaited).
struct SharedStreamCursor {
    var reader: SharedRingReader?
    var position: UInt64?
    /// The stream overtook this viewer: the resync it will ask for once the stream calms down
    /// (a snapshot asked for while the app bursts would be overtaken again, and each one costs
    /// the app a copy into this viewer's socket).
    var heldResync: String?
    /// The stream's end at the last look while a resync is held, and how many looks it waited.
    var lastEnd: UInt64 = 0
    var looksWaited = 0

    /// Looks at most this many times (every 10 ms) for the stream to calm down before asking.
    static let maximumLooksWaited = 200

    /// Whether deltas are being read from the stream.
    var isReading: Bool { reader != nil && position != nil }

    /// Whether the stream needs a look every 10 ms (reading it, or waiting for it to calm down).
    var needsLooks: Bool { reader != nil && (position != nil || heldResync != nil) }

    /// Whether the stream moved less than an eighth of the ring since the last look (or the
    /// viewer waited long enough): time to ask for the held resync.
    mutating func calmedDown(end: UInt64, capacity: Int) -> Bool {
        defer {
            lastEnd = end
            looksWaited += 1
        }
        return end &- lastEnd < UInt64(capacity / 8) || looksWaited >= Self.maximumLooksWaited
    }
}
