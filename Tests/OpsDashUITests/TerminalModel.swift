import OpsDashUI
import OpsMonitor
import Testing

/// A terminal as the backend drives it: a run is drawn left to right from its start, a wide
/// character fills its column and the next, a continuation cell is skipped (its lead drew it),
/// and overwriting one column of a wide character leaves the other showing half a glyph,
/// which `lines` shows as `fragment`.
struct TerminalModel {
    static let fragment: Character = "▒"
    private enum Piece: Equatable {
        case narrow(Character)
        case left(Character)
        case right(Character)
    }
    private var grid: [[Piece]]

    init(width: Int, height: Int) {
        grid = Array(repeating: Array(repeating: .narrow(" "), count: width), count: height)
    }

    mutating func apply(_ runs: [CellRun]) {
        for run in runs {
            var x = run.x
            // A slice of the frame's cells: indexed from its start.
            let cells = Array(run.cells)
            var index = 0
            while index < cells.count {
                let cell = cells[index]
                if cell.isContinuation {
                    put(.narrow(" "), x, run.y)  // a continuation without its lead: a blank
                    x += 1
                    index += 1
                } else if cell.width == 2 {
                    put(.left(cell.character), x, run.y)
                    put(.right(cell.character), x + 1, run.y)
                    x += 2
                    index += index + 1 < cells.count && cells[index + 1].isContinuation ? 2 : 1
                } else {
                    put(.narrow(cell.character), x, run.y)
                    x += 1
                    index += 1
                }
            }
        }
    }

    private mutating func put(_ piece: Piece, _ x: Int, _ y: Int) {
        guard y >= 0, y < grid.count, x >= 0, x < grid[y].count else { return }
        grid[y][x] = piece
    }

    /// Each row as text, a wide character once; trailing spaces trimmed like `CellBuffer.lines`.
    var lines: [String] {
        grid.map { row in
            var text = ""
            for (x, piece) in row.enumerated() {
                switch piece {
                case .narrow(let character): text.append(character)
                case .left(let character):
                    let whole = x + 1 < row.count && row[x + 1] == .right(character)
                    text.append(whole ? character : Self.fragment)
                case .right(let character):
                    if !(x > 0 && row[x - 1] == .left(character)) { text.append(Self.fragment) }
                }
            }
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}
