import OpsDashUI
import OpsMonitor
import Testing

@Suite struct WhyColumnTests {
    @Test func theWhyColumnGrowsWithTheTerminal() {
        let long = "connection reset by peer after 3 retries (HTTP 503)"
        let failed = OperationSnapshot(
            id: 1, name: "big.iso", kind: .download, lifecycle: .finished, outcome: .failed,
            message: long)
        let wide = render(Fixtures.state(Fixtures.snapshot([failed]), width: 200, height: 12))
        #expect(wide.line(4).contains(long))
        let normal = render(Fixtures.state(Fixtures.snapshot([failed]), width: 120, height: 12))
        #expect(normal.line(4).contains("connection"))
        #expect(!normal.line(4).contains(long))
    }
}
