import OpsDashUI
import Testing

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
