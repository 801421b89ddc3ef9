import Testing

@testable import OpsDashApp

/// `--linger N`: how long metrics are still served after the run.
@Suite struct LingerTests {
    @Test func aLingerEndsThatManySecondsLater() {
        let now = ContinuousClock.now
        #expect(MetricsExport.lingerEnd(after: 1.5, from: now) == now + .milliseconds(1_500))
        #expect(MetricsExport.lingerEnd(after: 0, from: now) == now)
    }

    @Test(arguments: [Double.infinity, 1e9, 1e300, Double.greatestFiniteMagnitude])
    func aHugeLingerHasNoEndInsteadOfOverflowing(seconds: Double) {
        #expect(MetricsExport.lingerEnd(after: seconds, from: .now) == nil)
    }
}
