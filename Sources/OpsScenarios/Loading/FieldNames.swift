/// The field names seen so far in one JSON object, as byte ranges of the text, to find a name
/// used twice without building strings: a few names are compared directly, many through a
/// hash table.
struct FieldNames {
    private static let directLimit = 16
    private var ranges: [Range<Int>] = []
    private var byHash: [Int: [Range<Int>]] = [:]

    /// Forgets every name, keeping storage for the next object.
    mutating func removeAll() {
        ranges.removeAll(keepingCapacity: true)
        if !byHash.isEmpty { byHash.removeAll() }
    }

    /// Adds the name at `range` of `bytes`; false when the object already has it.
    mutating func insert(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if ranges.count < Self.directLimit {
            for other in ranges where other.count == range.count && bytes[other].elementsEqual(bytes[range]) {
                return false
            }
            ranges.append(range)
            if ranges.count == Self.directLimit {
                for known in ranges { byHash[Self.hash(known, bytes), default: []].append(known) }
            }
            return true
        }
        let hash = Self.hash(range, bytes)
        if let sameHash = byHash[hash], sameHash.contains(where: { bytes[$0].elementsEqual(bytes[range]) }) {
            return false
        }
        byHash[hash, default: []].append(range)
        return true
    }

    private static func hash(_ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
        return hasher.finalize()
    }
}
