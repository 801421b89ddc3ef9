import DequeModule

/// A set of operation ids for the publisher's `cancel` checks, without hashing on the hot path:
/// one bit per id over a window of recent ids. Monitor ids grow by one per operation, so the
/// window runs from the oldest unfinished operation to the newest and slides forward as the
/// oldest ones finish. It is at most `windowWords` × 64 ids wide; ids that fall behind it (an
/// operation that outlives many newer ones) move to an ordinary `Set`.
struct OperationIDSet {
    /// Bit `id & 63` of word `(id >> 6) - baseWord` is set for each id in the window.
    private var words = Deque<UInt64>()
    private var baseWord = 0
    /// Members outside the window.
    private var far: Set<Int> = []
    let windowWords: Int

    init(windowWords: Int = 1 << 12) {
        self.windowWords = max(1, windowWords)
    }

    init<IDs: Sequence<Int>>(_ ids: IDs) {
        self.init()
        for id in ids { insert(id) }
    }

    func contains(_ id: Int) -> Bool {
        let index = (id >> 6) - baseWord
        if index >= 0, index < words.count, words[index] & Self.bit(id) != 0 { return true }
        return !far.isEmpty && far.contains(id)
    }

    mutating func insert(_ id: Int) {
        let word = id >> 6
        if words.isEmpty { baseWord = word }
        var index = word - baseWord
        guard index >= 0 else {
            far.insert(id)
            return
        }
        if index >= windowWords {
            // Slide the window so `id` is its last word; ids falling out of it move to `far`.
            let drop = index - windowWords + 1
            if drop >= words.count {
                for _ in 0..<words.count { evictFirstWord() }
                baseWord = word
            } else {
                for _ in 0..<drop { evictFirstWord() }
            }
            index = word - baseWord
        }
        while index >= words.count { words.append(0) }
        words[index] |= Self.bit(id)
    }

    mutating func remove(_ id: Int) {
        let index = (id >> 6) - baseWord
        if index >= 0, index < words.count {
            words[index] &= ~Self.bit(id)
            // The oldest ids finished: the window starts at the oldest unfinished one.
            while let first = words.first, first == 0 {
                words.removeFirst()
                baseWord += 1
            }
        }
        if !far.isEmpty { far.remove(id) }
    }

    private mutating func evictFirstWord() {
        guard var bits = words.popFirst() else { return }
        while bits != 0 {
            far.insert(baseWord << 6 + bits.trailingZeroBitCount)
            bits &= bits - 1
        }
        baseWord += 1
    }

    private static func bit(_ id: Int) -> UInt64 { 1 << UInt64(id & 63) }
}
