import OpsDashUI
import OpsMonitor
import Testing

/// Rows of operations waiting out a retry back-off, and of operations counting items.
@Suite struct RetryAndUnitsTests {
    static let operations = [
        OperationSnapshot(
            id: 1, name: "flaky.bin", kind: .download, lifecycle: .executing, completedUnits: 300 * Fixtures.kb,
            totalUnits: 1000 * Fixtures.kb, retries: 2, nextAttemptAt: .seconds(67) + .milliseconds(400),
            addedAt: .zero, startedAt: .seconds(10)),
        OperationSnapshot(
            id: 2, name: "index-pages", kind: .process, unit: .items, lifecycle: .executing, completedUnits: 10,
            totalUnits: 40, unitsPerSecond: 5, addedAt: .zero, startedAt: .seconds(63)),
    ]

    func line(named name: String) -> String? {
        let state = Fixtures.state(Fixtures.snapshot(Self.operations, time: .seconds(65)))
        return render(state).lines.first { $0.contains(name) }
    }

    @Test func aRetryWaitShowsRetryingAndWhenTheNextAttemptStarts() throws {
        let row = try #require(line(named: "flaky.bin"))
        #expect(row.contains("retrying"))
        #expect(row.contains("retry 2 in 3s"), "2.4 s left, rounded up")
        #expect(!row.contains("running"))
    }

    @Test func itemsAreCountedNotSizedInBytes() throws {
        let row = try #require(line(named: "index-pages"))
        #expect(row.contains("10/40 units"))
        #expect(row.contains("5/s"))
        #expect(row.contains("0:06"), "ETA: 30 items at 5/s")
        #expect(!row.contains("kB") && !row.contains(" B"))
    }

    @Test func countdowns() {
        #expect(Format.countdown(.milliseconds(2_400)) == "3s")
        #expect(Format.countdown(.zero) == "0s")
        #expect(Format.countdown(.seconds(-1)) == "0s")
        #expect(Format.countdown(.seconds(61)) == "2m")
        #expect(Format.countdown(.seconds(3_900)) == "1h05m")
    }

    @Test func itemFormats() {
        #expect(Format.units(3, of: 10) == "3/10 units")
        #expect(Format.units(3, of: 0) == "3 units")
        #expect(Format.unitRate(2.25) == "2/s")
        #expect(Format.unitRate(0) == "")
    }
}
