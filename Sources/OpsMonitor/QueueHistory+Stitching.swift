extension QueueHistory {
    /// One history of `window` seconds ending with the newest second any of `pieces` holds,
    /// each second taken from the piece with the newest end that holds it (a recording's
    /// keyframes each hold the window before them: stitched, they cover the whole recording).
    /// A second no piece holds (keyframes further apart than their window) repeats the levels
    /// of the one before it, nothing finished in it. Memory while stitching: an optional
    /// `Second` for each second of `window`.
    package static func stitched(_ pieces: [QueueHistory], window: Int) -> QueueHistory {
        let window = min(max(2, window), maximumWindow)
        guard let newest = pieces.compactMap(\.currentSecond).max() else { return QueueHistory(window: window) }
        let first = max(0, newest - Int64(window - 1))
        var slots = [Second?](repeating: nil, count: Int(newest - first + 1))
        let ordered = pieces.filter { !$0.isEmpty }.sorted { ($0.currentSecond ?? 0) < ($1.currentSecond ?? 0) }
        for piece in ordered {
            guard let end = piece.currentSecond else { continue }
            let seconds = piece.seconds(endingAt: .seconds(end))
            let start = end - Int64(seconds.count - 1)
            for (offset, second) in seconds.enumerated() {
                let slot = start + Int64(offset) - first
                if slot >= 0, slot < Int64(slots.count) { slots[Int(slot)] = second }
            }
        }
        guard let held = slots.firstIndex(where: { $0 != nil }) else { return QueueHistory(window: window) }
        var seconds: [Second] = []
        seconds.reserveCapacity(slots.count - held)
        for slot in slots[held...] { seconds.append(slot ?? seconds.last?.quiet ?? Second()) }
        return QueueHistory(window: window, seconds: seconds, newest: newest)
    }
}
