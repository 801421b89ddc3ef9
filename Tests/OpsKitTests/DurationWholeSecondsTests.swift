import Testing

@testable import OpsKit

/// `Duration.wholeSeconds` takes a one-division path for durations from zero to ~584 billion
/// years and `components` otherwise: it is `components.seconds` everywhere.
@Suite struct DurationWholeSecondsTests {
    @Test func isTheSecondsComponentAcrossTheFastPathsBounds() {
        var durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(999_999_999), .seconds(1), .seconds(59), .seconds(3_600),
            Duration(secondsComponent: 5, attosecondsComponent: 999_999_999_999_999_999),
            .seconds(18_446_744_073), .seconds(18_446_744_074), .seconds(Int64.max - 1), .seconds(Int64.max),
            .nanoseconds(-1), .milliseconds(-1_500), .seconds(-20), .seconds(Int64.min),
        ]
        var generator = SeededGenerator(seed: 28)
        for _ in 0..<2_000 {
            durations.append(
                Duration(
                    secondsComponent: Int64.random(in: -1_000...Int64.max, using: &generator),
                    attosecondsComponent: Int64.random(in: 0..<1_000_000_000_000_000_000, using: &generator)))
        }
        for duration in durations {
            #expect(duration.wholeSeconds == duration.components.seconds, "\(duration)")
        }
    }
}
