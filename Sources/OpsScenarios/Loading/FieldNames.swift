import Foundation

/// The field names seen so far in one JSON object, as byte ranges of the text, to find a name
/// used twice without building strings: a few names are compared directly, many through a
/// hash table. A name written with `\` escapes is compared by what it decodes to (`"i\u0064"`
/// is `"id"`).
struct FieldNames {
    private static let directLimit = 16
    private var ranges: [Range<Int>] = []
    private var byHash: [Int: [Range<Int>]] = [:]
    /// The decoded names of fields written with escapes (rare: checked one by one).
    private var escaped: [[UInt8]] = []

    /// Forgets every name, keeping storage for the next object.
    mutating func removeAll() {
        ranges.removeAll(keepingCapacity: true)
        if !byHash.isEmpty { byHash.removeAll() }
        if !escaped.isEmpty { escaped.removeAll() }
    }

    /// Adds the name at `range` of `bytes` (the text between the quotes, already checked to be a
    /// valid JSON string); false when the object already has it.
    mutating func insert(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes[range].contains(UInt8(ascii: "\\")) {
            guard let decoded = Self.decoded(bytes[range]) else { return true }
            if escaped.contains(decoded) { return false }
            let known = ranges + byHash.values.joined()
            if known.contains(where: { bytes[$0].elementsEqual(decoded) }) { return false }
            escaped.append(decoded)
            return true
        }
        if !escaped.isEmpty, escaped.contains(where: { $0.elementsEqual(bytes[range]) }) { return false }
        return insertPlain(range, in: bytes)
    }

    /// The UTF-8 of what a JSON string's inside decodes to.
    private static func decoded(_ inside: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8]? {
        let quoted = Data(
            [UInt8(ascii: "[")] + [UInt8(ascii: "\"")] + Array(inside) + [UInt8(ascii: "\"")] + [UInt8(ascii: "]")])
        guard let array = try? JSONSerialization.jsonObject(with: quoted) as? [String], let name = array.first else {
            return nil
        }
        return Array(name.utf8)
    }

    private mutating func insertPlain(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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
