import Testing

@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// The publisher's bit-window set of unfinished operation ids answers like a `Set<Int>`, as
/// ids arrive in order, finish out of order, outlive the window or jump far ahead.
@Suite struct OperationIDSetTests {
    /// A small deterministic generator (the same sequence on every run).
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test(arguments: [1, 2, 64])
    func answersLikeASetWhateverTheOrder(windowWords: Int) {
        var set = OperationIDSet(windowWords: windowWords)
        var model: Set<Int> = []
        var random = SplitMix(state: UInt64(windowWords))
        var nextID = 1
        // Every id inserted or removed, and the ones around them: what the checks ask about.
        var touched: Set<Int> = []
        for step in 0..<6_000 {
            switch random.next(10) {
            case 0..<4:
                // Mostly the next id; now and then a jump far ahead, or an old or negative one.
                let id: Int
                switch random.next(50) {
                case 0: id = nextID + 100_000
                case 1: id = -random.next(500)
                case 2: id = random.next(max(1, nextID))
                default: id = nextID
                }
                nextID = max(nextID, id + 1)
                touched.insert(id)
                set.insert(id)
                model.insert(id)
            case 4..<8:
                guard !model.isEmpty else { continue }
                let id = model.sorted()[random.next(model.count)]
                set.remove(id)
                model.remove(id)
            default:
                // Ids that never were members, and ones that finished.
                let id = random.next(nextID + 200) - 100
                touched.insert(id)
                set.remove(id)
                model.remove(id)
            }
            if step % 200 == 0 {
                let asked = touched.flatMap { [$0 - 1, $0, $0 + 1] } + Array(nextID..<(nextID + 70))
                for id in asked where set.contains(id) != model.contains(id) {
                    Issue.record("step \(step): contains(\(id)) is \(set.contains(id)), expected \(model.contains(id))")
                    return
                }
            }
        }
        #expect(model.allSatisfy { set.contains($0) })
    }

    @Test func aLongRunningOperationStaysCancellableWhileThousandsFinishAfterIt() {
        var set = OperationIDSet(windowWords: 2)
        set.insert(1)
        for id in 2...10_000 {
            set.insert(id)
            set.remove(id)
        }
        #expect(set.contains(1))
        #expect(!set.contains(2) && !set.contains(10_000))
        set.remove(1)
        #expect(!set.contains(1))
    }
}
