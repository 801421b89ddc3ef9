import OpsDashUI
import Testing

@Suite struct FormatTests {
    @Test func bytesUseBinaryUnitsWithOneDecimal() {
        #expect(Format.bytes(0) == "0 B")
        #expect(Format.bytes(512) == "512 B")
        #expect(Format.bytes(999) == "999 B")
        #expect(Format.bytes(1024) == "1.0 KB")
        #expect(Format.bytes(12_897_485) == "12.3 MB")
        #expect(Format.bytes(3 * 1024 * 1024 * 1024 / 2) == "1.5 GB")
        #expect(Format.bytes(-5) == "0 B")
    }

    @Test func bytesNeverShowFourDigitsBeforeTheUnit() {
        #expect(Format.bytes(1023) == "1.0 KB")
        #expect(Format.bytes(1_048_000) == "1.0 MB")
    }

    @Test func doneOfTotalUsesTheTotalsUnit() {
        #expect(Format.bytes(54 * 1_048_576, of: 120 * 1_048_576) == "54.0/120.0 MB")
        #expect(Format.bytes(0, of: 2 * 1_048_576) == "0.0/2.0 MB")
        #expect(Format.bytes(300 * 1024, of: 2 * 1_048_576) == "0.3/2.0 MB")
        #expect(Format.bytes(10, of: 40) == "10/40 B")
        #expect(Format.bytes(0, of: 0) == "")
    }

    @Test func rateIsBytesPerSecondAndEmptyWhenStill() {
        #expect(Format.rate(1_258_291) == "1.2 MB/s")
        #expect(Format.rate(0) == "")
        #expect(Format.rate(.infinity) == "")
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
    }

    @Test func percentRoundsDownSoOnlyDoneIsHundred() {
        #expect(Format.percent(0.456) == "45%")
        #expect(Format.percent(0.999) == "99%")
        #expect(Format.percent(1) == "100%")
        #expect(Format.percent(-1) == "0%")
        #expect(Format.percent(.nan) == "0%")
    }
}

@Suite struct ProgressBarTests {
    @Test func eighthBlocksShowPartialCells() {
        let bar = ProgressBar(fraction: 0.45)
        // 0.45 × 12 cells × 8 = 43.2 eighths: 5 full cells and 3/8 of the next.
        #expect(String(bar.characters(width: 12, glyphs: .unicode)) == "█████▍······")
        #expect(String(bar.characters(width: 12, glyphs: .ascii)) == "#####=......")
    }

    @Test func everyEighthHasItsGlyph() {
        let glyphs = (1...8).map {
            ProgressBar(fraction: Double($0) / 8).characters(width: 1, glyphs: .unicode)[0]
        }
        #expect(String(glyphs) == "▏▎▍▌▋▊▉█")
    }

    @Test func emptyFullAndOutOfRange() {
        #expect(String(ProgressBar(fraction: 0).characters(width: 4, glyphs: .ascii)) == "....")
        #expect(String(ProgressBar(fraction: 1).characters(width: 4, glyphs: .ascii)) == "####")
        #expect(String(ProgressBar(fraction: 7).characters(width: 4, glyphs: .ascii)) == "####")
        #expect(ProgressBar(fraction: 0.5).characters(width: 0, glyphs: .unicode).isEmpty)
    }
}
