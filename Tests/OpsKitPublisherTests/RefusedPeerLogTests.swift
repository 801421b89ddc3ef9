import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher

@Suite struct RefusedPeerLogTests {
    @Test func oneLinePerUidPerIntervalWithTheCountHeldBack() {
        let log = RefusedPeerLog(interval: .seconds(60))
        #expect(
            log.refused(uid: 65_534, pid: 77, now: .seconds(5))
                == "refused a viewer of uid 65534 (pid 77): not the app's uid or one it allows")
        #expect(log.refused(uid: 65_534, pid: 78, now: .seconds(6)) == nil)
        #expect(log.refused(uid: 65_534, pid: 79, now: .seconds(64)) == nil, "59 s after the line")
        #expect(
            log.refused(uid: 1_001, pid: nil, now: .seconds(7))
                == "refused a viewer of uid 1001: not the app's uid or one it allows", "another uid has its own budget")
        #expect(
            log.refused(uid: 65_534, pid: 80, now: .seconds(65))
                == "refused a viewer of uid 65534 (pid 80): not the app's uid or one it allows"
                + " (and 2 more from uid 65534 since the last such line, not logged)")
        #expect(
            log.refused(uid: 65_534, pid: 81, now: .seconds(125))?.hasSuffix("one it allows") == true,
            "nothing held back")
    }

    @Test func rememberedUidsAreBounded() {
        let log = RefusedPeerLog(interval: .seconds(60))
        for uid in 0..<2_000 {
            #expect(log.refused(uid: UInt32(uid), pid: nil, now: .seconds(Double(uid) / 1_000)) != nil)
        }
        #expect(log.refused(uid: 0, pid: nil, now: .seconds(2)) != nil, "the oldest uid was forgotten")
        #expect(log.refused(uid: 1_999, pid: nil, now: .seconds(2)) == nil)
    }
}
