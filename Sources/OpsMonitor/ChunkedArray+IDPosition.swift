extension ChunkedArray where Element == OperationSnapshot {
    /// Where the row with `id` is, for rows in id order with distinct ids (a monitor's store and
    /// its pictures); nil if none. O(1) unless rows before the newest were evicted, else
    /// O(log n); nothing copied, no table.
    ///
    /// At most `newest - id` rows follow the row and at most `id - oldest` precede it, so with no
    /// gap the two bounds meet at it. Ids from a peer are hostile: the differences are taken
    /// without overflow, and rows out of order only make it answer nil.
    package func position(ofID id: Int) -> Int? {
        let last = count - 1
        guard last >= 0 else { return nil }
        let oldest = withElement(at: 0) { $0.id }
        let newest = withElement(at: last) { $0.id }
        guard id >= oldest, id <= newest else { return nil }
        // Both differences are between 0 and 2^64 - 1, exact as unsigned bit patterns.
        let following = Swift.min(UInt(bitPattern: newest &- id), UInt(last))
        let preceding = Swift.min(UInt(bitPattern: id &- oldest), UInt(last))
        var low = last - Int(following)
        var high = Int(preceding)
        while low <= high {
            let middle = low + (high - low) / 2
            let found = withElement(at: middle) { $0.id }
            if found == id { return middle }
            if found < id { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}
