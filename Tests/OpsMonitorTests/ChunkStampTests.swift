import Testing
@testable import OpsMonitor

/// `ChunkedArray.chunkStamps`: what lets the dashboard tell which chunks changed without keeping
/// the chunks (and so without making the store copy each one it changes next).
struct ChunkStampTests {
    static let size = ChunkedArray<Int>.chunkSize

    @Test func aCopyKeepsTheStampsAndEachChangeRestampsItsChunkOnly() {
        var array = ChunkedArray(0..<(3 * Self.size))
        let kept = array.chunkStamps
        #expect(kept.count == 3)
        #expect(Set(kept).count == 3)

        array[Self.size + 1] = -1
        #expect(array.chunkStamps[0] == kept[0])
        #expect(array.chunkStamps[1] != kept[1])
        #expect(array.chunkStamps[2] == kept[2])

        let afterSet = array.chunkStamps
        array.update(at: 2) { $0 += 1 }
        #expect(array.chunkStamps[0] != afterSet[0])
        #expect(array.chunkStamps[1...] == afterSet[1...])

        let afterUpdate = array.chunkStamps
        array.append(7)
        #expect(array.chunkStamps.count == 4)
        #expect(array.chunkStamps[..<3] == afterUpdate[..<3])
    }

    @Test func anAppendToAPartlyFilledChunkRestampsIt() {
        var array = ChunkedArray([1, 2])
        let kept = array.chunkStamps
        array.append(3)
        #expect(array.chunkStamps.count == 1)
        #expect(array.chunkStamps[0] != kept[0])
    }

    @Test func copiesChangedApartNeverShareAStampForDifferentElements() {
        let original = ChunkedArray(0..<10)
        var left = original
        var right = original
        left[0] = 100
        right[0] = 200
        #expect(left.chunkStamps[0] != right.chunkStamps[0])
        #expect(left.chunkStamps[0] != original.chunkStamps[0])
        // Arrays built apart from the same elements are not taken for the same either.
        #expect(ChunkedArray(0..<10).chunkStamps != original.chunkStamps)
    }

    /// `elementStamps(in:)`: a change restamps its element alone, so a reader of some rows can
    /// tell them unchanged while another row of their chunk changes.
    @Test func aChangeRestampsItsElementOnly() {
        var array = ChunkedArray(0..<(2 * Self.size + 5))
        let all = 0..<array.count
        let kept = array.elementStamps(in: all)
        #expect(kept.count == array.count)
        #expect(Set(kept).count == kept.count)

        array[3] = -1
        array.update(at: Self.size + 7) { $0 += 1 }
        let now = array.elementStamps(in: all)
        for position in all {
            #expect((now[position] == kept[position]) == (position != 3 && position != Self.size + 7), "\(position)")
        }
        // A range across chunks is read in order, and an empty one is empty.
        let across = (Self.size - 2)..<(Self.size + 9)
        #expect(array.elementStamps(in: across) == Array(now[across]))
        #expect(array.elementStamps(in: 4..<4).isEmpty)

        array.append(9)
        #expect(array.elementStamps(in: all) == now)
        #expect(!now.contains(array.elementStamps(in: array.count - 1..<array.count)[0]))
    }

    @Test func copiesChangedApartNeverShareAnElementStamp() {
        let original = ChunkedArray(0..<10)
        var left = original
        var right = original
        left[4] = 100
        right[4] = 200
        #expect(left.elementStamps(in: 4..<5) != right.elementStamps(in: 4..<5))
        #expect(left.elementStamps(in: 0..<4) == original.elementStamps(in: 0..<4))
        #expect(ChunkedArray(0..<10).elementStamps(in: 0..<10) != original.elementStamps(in: 0..<10))
    }
}
