/// A small, fast, seedable random generator (SplitMix64): the same seed gives the same sequence
/// on every platform, which is what makes simulated runs repeatable.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for a sub-stream (e.g. one operation), independent of the order others draw.
    public func derived(_ salt: UInt64) -> SeededGenerator {
        var copy = SeededGenerator(seed: state ^ (salt &* 0xD6E8_FEB8_6659_FD93))
        _ = copy.next()
        return copy
    }
}
