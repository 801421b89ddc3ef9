import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher

/// When a publisher stops streaming deltas: once enough changes came faster than the rate, and
/// again once the rate falls under half of it.
@Suite struct BurstDetectorTests {
    static func detector(rate: Double = 1_000) -> BurstDetector {
        var detector = BurstDetector(rate: rate, minimumChanges: 100, span: .milliseconds(10))
        detector.reset(at: .zero)
        return detector
    }

    @Test func enoughChangesFasterThanTheRateStartABurst() {
        var detector = Self.detector()
        var decided = false
        decided = detector.count(60, at: .milliseconds(10))
        #expect(!decided)
        decided = detector.count(60, at: .milliseconds(20))
        #expect(decided, "120 changes in 20 ms: 6,000/s")
        #expect(detector.isInBurst)
    }

    @Test func aFlurryOfFewerChangesIsNoBurstHoweverFast() {
        var detector = Self.detector()
        var decided = false
        decided = detector.count(99, at: .milliseconds(1))
        #expect(!decided)
        decided = detector.count(0, at: .seconds(1))
        #expect(!decided)
        #expect(!detector.isInBurst)
    }

    @Test func aSteadyRateUnderTheLimitIsNoBurst() {
        var detector = Self.detector()
        var decided = false
        for step in 1...100 {
            // 9 changes every 10 ms: 900/s, under 1,000/s.
            decided = detector.count(9, at: .milliseconds(10 * step))
            #expect(!decided)
        }
        #expect(!detector.isInBurst)
    }

    @Test func aQuietSpellBeforeTheBurstDoesNotHideIt() {
        var detector = Self.detector()
        var decided = false
        decided = detector.count(0, at: .seconds(60))
        #expect(!decided)
        decided = detector.count(200, at: .seconds(60) + .milliseconds(10))
        #expect(decided)
    }

    @Test func theBurstEndsWhenTheRateFallsUnderHalf() {
        var detector = Self.detector()
        var decided = false
        decided = detector.count(200, at: .milliseconds(10))
        #expect(decided)
        decided = detector.count(7, at: .milliseconds(15))
        #expect(!decided, "a look shorter than the span decides nothing")
        decided = detector.count(7, at: .milliseconds(20))
        #expect(!decided, "1,400/s over 10 ms: still a burst")
        #expect(detector.isInBurst)
        decided = detector.count(6, at: .milliseconds(30))
        #expect(!decided, "600/s: above half the rate")
        decided = detector.count(4, at: .milliseconds(40))
        #expect(decided, "400/s: calm")
        #expect(!detector.isInBurst)
    }

    @Test func aRateOfZeroNeverBursts() {
        var detector = Self.detector(rate: 0)
        var decided = false
        decided = detector.count(1_000_000, at: .milliseconds(10))
        #expect(!decided)
        #expect(!detector.isInBurst)
    }

    @Test func resetEndsABurst() {
        var detector = Self.detector()
        var decided = false
        decided = detector.count(200, at: .milliseconds(10))
        #expect(decided)
        detector.reset(at: .milliseconds(20))
        #expect(!detector.isInBurst)
    }
}
