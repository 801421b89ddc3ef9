import OpsKit

/// Uniform draws defined bit-for-bit here, so values never depend on the standard library's
/// sampling algorithm.
extension SeededGenerator {
    /// Uniform in 0..<1 with 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// The spec's value, or a uniform draw in its range.
    mutating func draw(_ spec: NumberSpec) -> Double {
        switch spec {
        case .value(let v): return v
        case .range(let low, let high): return low + (high - low) * unit()
        }
    }
}
