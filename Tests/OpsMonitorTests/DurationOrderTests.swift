import OpsKit
import Testing
@testable import OpsMonitor

/// The monitor's in-place comparison of clock times orders them as `Duration`'s own `<` does:
/// negative, zero, sub-nanosecond and very long durations, and ones a low word's carry apart.
@Suite struct DurationOrderTests {
    @Test func ordersAsTheStandardComparison() {
        var random = SeededGenerator(seed: 28)
        let edges: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .seconds(Int64.max), .seconds(Int64.min),
            Duration(_high: 0, low: .max), Duration(_high: 1, low: 0), Duration(_high: -1, low: .max),
            Duration(_high: -1, low: 0), .milliseconds(1_500),
        ]
        var values = edges
        for _ in 0..<200 {
            values.append(
                Duration(
                    _high: Int64.random(in: -3...3, using: &random),
                    low: UInt64.random(in: 0...UInt64.max, using: &random)))
            values.append(.nanoseconds(Int64.random(in: -1_000_000...1_000_000, using: &random)))
        }
        for left in values {
            for right in values.prefix(40) {
                #expect(left.isShorter(than: right) == (left < right), "\(left) < \(right)")
                #expect(right.isShorter(than: left) == (right < left), "\(right) < \(left)")
            }
        }
    }
}
