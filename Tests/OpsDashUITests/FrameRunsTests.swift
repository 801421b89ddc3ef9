import Testing

@testable import OpsDashUI

/// The runs of a diff share one storage (`FrameRuns`): each run is the cells a diff that
/// copied every run's cells into an array of its own made, at the same place (seeded random
/// buffers of narrow and wide characters in a few styles, changed in a few places a row).
@Suite struct FrameRunsTests {
    @Test func sharedRunsAreTheRunsOfACellByCellDiff() {
        var seed: UInt64 = 28
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let texts = ["a", "bc", "漢", "字x", "→", "dé", " "]
        let styles = [CellStyle.plain, CellStyle(foreground: .red), CellStyle(bold: true)]
        for round in 0..<300 {
            let width = 1 + next(30)
            let height = 1 + next(5)
            var old = CellBuffer(width: width, height: height)
            for _ in 0..<next(20) {
                old.write(texts[next(texts.count)], x: next(width), y: next(height), style: styles[next(3)])
            }
            var new = old
            for _ in 0..<next(8) {
                new.write(texts[next(texts.count)], x: next(width), y: next(height), style: styles[next(3)])
            }
            let previous = next(10) == 0 ? CellBuffer(width: 0, height: 0) : old
            let runs = diff(from: previous, to: new)
            let expected = Self.runs(from: previous, to: new)
            #expect(runs.map(\.x) == expected.map(\.x), "round \(round)")
            #expect(runs.map(\.y) == expected.map(\.y), "round \(round)")
            #expect(runs.map { Array($0.cells) } == expected.map(\.cells), "round \(round)")
        }
    }

    /// The runs as a diff with an array a run made them: the same walk over each row.
    private static func runs(from previous: CellBuffer, to next: CellBuffer) -> [(x: Int, y: Int, cells: [Cell])] {
        var runs: [(x: Int, y: Int, cells: [Cell])] = []
        let full = previous.width != next.width || previous.height != next.height
        for y in 0..<next.height {
            var x = 0
            while x < next.width {
                if !full && previous[x, y] == next[x, y] {
                    x += 1
                    continue
                }
                var start = x
                if next[start, y].isContinuation && start > 0 { start -= 1 }
                while x < next.width && (full || previous[x, y] != next[x, y]) { x += 1 }
                if x < next.width && next[x, y].isContinuation { x += 1 }
                runs.append((start, y, (start..<x).map { next[$0, y] }))
            }
        }
        return runs
    }
}
