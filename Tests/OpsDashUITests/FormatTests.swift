import OpsDashUI
import Testing

@Suite struct FormatTests {
    @Test func bytesUseSIUnitsWithOneDecimal() {
        #expect(Format.bytes(0) == "0 B")
        #expect(Format.bytes(512) == "512 B")
        #expect(Format.bytes(999) == "999 B")
        #expect(Format.bytes(1000) == "1.0 kB")
        #expect(Format.bytes(1024) == "1.0 kB")
        #expect(Format.bytes(12_345_678) == "12.3 MB")
        #expect(Format.bytes(1_500_000_000) == "1.5 GB")
        #expect(Format.bytes(-5) == "0 B")
    }

    @Test func bytesNeverShowFourDigitsBeforeTheUnit() {
        #expect(Format.bytes(999_960) == "1.0 MB")
        #expect(Format.bytes(999_940) == "999.9 kB")
    }

    @Test func doneOfTotalUsesTheTotalsUnit() {
        #expect(Format.bytes(54_000_000, of: 120_000_000) == "54.0/120.0 MB")
        #expect(Format.bytes(0, of: 2_000_000) == "0.0/2.0 MB")
        #expect(Format.bytes(300_000, of: 2_000_000) == "0.3/2.0 MB")
        #expect(Format.bytes(10, of: 40) == "10/40 B")
        #expect(Format.bytes(0, of: 0) == "")
    }

    @Test func rateIsBytesPerSecondAndEmptyWhenStill() {
        #expect(Format.rate(1_250_000) == "1.3 MB/s")
        #expect(Format.rate(25_000_000) == "25.0 MB/s")
        // A hostile peer's rate beyond Int64 shows, clamped, instead of trapping.
        #expect(!Format.rate(1e300).isEmpty)
        #expect(!Format.unitRate(1e300).isEmpty)
        #expect(Format.rate(0) == "")
        #expect(Format.rate(.infinity) == "")
        #expect(Format.rate(0, showingZero: true) == "0 B/s")
    }

    @Test func workUnitsAreCountsWithAnSIPrefixNotBytes() {
        #expect(Format.units(250, of: 800) == "250/800 units")
        #expect(Format.units(200, of: 1500) == "0.2/1.5k units")
        #expect(Format.units(0, of: 0) == "")
        #expect(Format.unitRate(1500) == "1.5k/s")
        #expect(Format.unitRate(0) == "")
    }

    @Test func speedIsShownOnlyWhenNotRealTime() {
        #expect(Format.speed(1) == "")
        #expect(Format.speed(20) == "×20")
        #expect(Format.speed(0.5) == "×0.5")
        #expect(Format.speed(2.25, ascii: true) == "x2.25")
        #expect(Format.speed(10_000) == "×10000")
    }

    @Test func durationsAreMinutesSecondsThenHoursMinutes() {
        #expect(Format.duration(.zero) == "0:00")
        #expect(Format.duration(.seconds(7)) == "0:07")
        #expect(Format.duration(.seconds(65)) == "1:05")
        #expect(Format.duration(.seconds(3599)) == "59:59")
        #expect(Format.duration(.seconds(2 * 3600 + 3 * 60 + 59)) == "2h03m")
        #expect(Format.duration(.seconds(3 * 86_400 + 4 * 3600)) == "3d04h")
        #expect(Format.duration(.seconds(-4)) == "0:00")
    }

    @Test func timestampsCarryTenths() {
        #expect(Format.timestamp(.milliseconds(65_250)) == "1:05.2")
        #expect(Format.timestamp(.zero) == "0:00.0")
        #expect(Format.timestamp(.seconds(3725)) == "1:02:05.0")
    }

    @Test func etaRoundsUpAndIsEmptyWhenUnknown() {
        #expect(Format.eta(remaining: 1000, bytesPerSecond: 100) == "0:10")
        #expect(Format.eta(remaining: 1001, bytesPerSecond: 100) == "0:11")
        #expect(Format.eta(remaining: 1000, bytesPerSecond: 0) == "")
        #expect(Format.eta(remaining: 0, bytesPerSecond: 100) == "")
        #expect(Format.eta(completed: 200, of: 1_200, bytesPerSecond: 100) == "0:10")
        // Counts more than Int64 apart (a hostile peer's picture) show none instead of trapping.
        #expect(Format.eta(completed: .min, of: .max, bytesPerSecond: 100) == "")
        #expect(Format.eta(completed: -1, of: .max, bytesPerSecond: 1e30) == "")
    }

    @Test func percentRoundsDownSoOnlyDoneIsHundred() {
        #expect(Format.percent(0.456) == "45%")
        #expect(Format.percent(0.999) == "99%")
        #expect(Format.percent(1) == "100%")
        #expect(Format.percent(-1) == "0%")
        #expect(Format.percent(.nan) == "0%")
    }
}
