import Testing
@testable import OpsKit

/// `Duration.nanoseconds` takes a one-division path for durations from zero to ~584 years and
/// the `components` path otherwise; both truncate towards zero and saturate alike.
@Suite struct DurationNanosecondsTests {
    /// The value through `components` alone (the general path), for comparison.
    private func throughComponents(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sumOverflow ? .max : sum
    }

    @Test func agreesWithComponentsAcrossTheFastPathsBounds() {
        var durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(999_999_999), .seconds(18), .seconds(19),
            Duration(secondsComponent: 5, attosecondsComponent: 999_999_999_999_999_999),
            .seconds(9_223_372_036), .seconds(9_223_372_037), .seconds(1_000_000_000_000), .seconds(Int64.max),
            .nanoseconds(-1), .seconds(-20), .seconds(Int64.min),
        ]
        var generator = SeededGenerator(seed: 28)
        for _ in 0..<2_000 {
            durations.append(
                Duration(
                    secondsComponent: Int64.random(in: 0...20_000_000_000, using: &generator),
                    attosecondsComponent: Int64.random(in: 0..<1_000_000_000_000_000_000, using: &generator)))
        }
        for duration in durations {
            #expect(duration.nanoseconds == throughComponents(duration), "\(duration)")
        }
        #expect(Duration.seconds(9_223_372_037).nanoseconds == .max, "saturates past Int64")
        #expect(Duration.nanoseconds(123_456_789_012).nanoseconds == 123_456_789_012)
    }
}
