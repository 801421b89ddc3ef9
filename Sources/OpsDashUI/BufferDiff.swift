/// What to draw to turn `previous` into `next`: runs of consecutive changed cells.
///
/// A size change (or an empty `previous`) repaints everything. Identical buffers give no runs,
/// so an unchanged frame draws nothing. A run never holds half a wide character: it starts at a
/// lead cell (never at a continuation) and ends after its continuation.
public func diff(from previous: CellBuffer, to next: CellBuffer) -> [CellRun] {
    var runs = FrameRuns()
    let full = previous.width != next.width || previous.height != next.height
    for y in 0..<next.height {
        appendRuns(row: y, from: previous, to: next, full: full, into: &runs)
    }
    return runs.runs()
}

/// Appends the runs of row `y` that differ between `previous` and `next` (every cell when
/// `full`).
func appendRuns(row y: Int, from previous: CellBuffer, to next: CellBuffer, full: Bool, into runs: inout FrameRuns) {
    let width = next.width
    let base = y * width
    next.cells.withUnsafeBufferPointer { new in
        previous.cells.withUnsafeBufferPointer { old in
            // Compared as bytes (`Cell.equal(at:_:_:)`): most cells of a row are equal.
            let newBytes = UnsafeRawBufferPointer(new)
            let oldBytes = UnsafeRawBufferPointer(old)
            var x = 0
            while x < width {
                if !full {
                    x = Cell.firstDifference(in: (base + x)..<(base + width), oldBytes, newBytes) - base
                    guard x < width else { break }
                }
                var start = x
                if new[base + start].isContinuation && start > 0 { start -= 1 }
                while x < width && (full || !Cell.equal(at: base + x, oldBytes, newBytes)) { x += 1 }
                // Keep a wide character whole: its continuation follows its lead.
                if x < width && new[base + x].isContinuation { x += 1 }
                runs.append(x: start, y: y, new[(base + start)..<(base + x)])
            }
        }
    }
}
