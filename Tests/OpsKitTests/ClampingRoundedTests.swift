import OpsKit
import Testing

/// A rate from elsewhere (a peer's line, a keyframe) may be any `Double`: converting it to
/// `Int64` clamps instead of trapping (FuzzEventLine found the trap with a rate of 1e300).
@Suite struct ClampingRoundedTests {
    @Test func outOfRangeValuesClampAndNaNIsZero() {
        #expect(Int64(clampingRounded: 1e300) == .max)
        #expect(Int64(clampingRounded: -1e300) == .min)
        #expect(Int64(clampingRounded: .infinity) == .max)
        #expect(Int64(clampingRounded: -.infinity) == .min)
        #expect(Int64(clampingRounded: .nan) == 0)
        #expect(Int64(clampingRounded: 9.3e18) == .max)
    }

    @Test func inRangeValuesRoundToTheNearest() {
        #expect(Int64(clampingRounded: 2.5e6 + 0.4) == 2_500_000)
        #expect(Int64(clampingRounded: 2.5) == 3)
        #expect(Int64(clampingRounded: -2.6) == -3)
    }
}
