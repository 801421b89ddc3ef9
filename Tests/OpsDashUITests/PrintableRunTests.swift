import Testing

@testable import OpsDashUI

/// A run of printable ASCII is written with its two edge cells stored one at a time (they may
/// cut a wide character) and its inside in one pass: the cells are those that storing each
/// character in turn gives, wherever the run starts and ends over wide characters, and however
/// it is clipped.
@Suite struct PrintableRunTests {
    /// A row of wide characters with narrow ones between: every column a lead, a continuation or
    /// a narrow cell somewhere.
    private func row() -> CellBuffer {
        var buffer = CellBuffer(width: 10, height: 1)
        buffer.write("漢字a漢b字", x: 0, y: 0)
        return buffer
    }

    @Test func isWhatStoringEachCharacterGives() {
        let text = "0123456789ab"
        for length in 0...text.count {
            let run = String(text.prefix(length))
            for x in -2...10 {
                for lower in 0...3 {
                    for limit in 4...10 {
                        var written = row()
                        let end = written.writePrintableASCII(run, x: x, y: 0, style: .plain, from: lower, to: limit)
                        var stored = row()
                        var column = x
                        for character in run {
                            if column >= limit { break }
                            if column >= lower { stored[column, 0] = Cell(character) }
                            column += 1
                        }
                        let place = "\"\(run)\" at \(x) in \(lower)..<\(limit)"
                        #expect(written == stored, "\(place)")
                        #expect(end == column, "\(place)")
                    }
                }
            }
        }
    }
}
