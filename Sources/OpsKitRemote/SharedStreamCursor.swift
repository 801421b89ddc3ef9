/// A viewer's place in the publisher's shared-memory stream: the mapping (once `welcome`
/// offered one and it could be opened) and the position of the next delta (once the publisher
/// said where it starts; nil while a snapshot is awaited).
struct SharedStreamCursor {
    var reader: SharedRingReader?
    var position: UInt64?

    /// Whether deltas are being read from the stream.
    var isReading: Bool { reader != nil && position != nil }
}
