import OpsDashUI
import OpsMonitor
import Testing

@testable import OpsDashTerminal

@Suite struct StyleMappingTests {
    @Test func colourTerminalKeepsColoursAndAttributes() {
        let style = CellStyle(
            foreground: .red, background: .blue, bold: true, dim: true, reverse: true,
            underline: true)
        let resolved = resolve(style, hasColors: true)
        #expect(resolved.foreground == .red)
        #expect(resolved.background == .blue)
        #expect(resolved.attributes == [.bold, .dim, .reverse, .underline])
    }

    @Test func plainStyleHasNoAttributes() {
        let plain = ResolvedStyle(attributes: [], foreground: .default, background: .default)
        #expect(resolve(.plain, hasColors: true) == plain)
        #expect(resolve(.plain, hasColors: false) == plain)
    }

    @Test(arguments: [TerminalColor.yellow, .green])
    func monochromeMakesStatusColoursBold(_ color: TerminalColor) {
        let resolved = resolve(CellStyle(foreground: color), hasColors: false)
        #expect(resolved.attributes == [.bold])
        #expect(resolved.foreground == .default)
    }

    @Test func monochromeUnderlinesRedSoFailuresStandOut() {
        let resolved = resolve(CellStyle(foreground: .red), hasColors: false)
        #expect(resolved.attributes == [.bold, .underline])
        #expect(resolved.foreground == .default)
    }

    /// The dashboard's own styles: a failed row's state word and error differ from a succeeded
    /// row's by more than the word itself on a terminal without colours.
    @Test func monochromeFailedRowDiffersFromSucceededRow() throws {
        let failed = OperationSnapshot(
            id: 1, name: "a", lifecycle: .finished, outcome: .failed, message: "HTTP 503")
        let succeeded = OperationSnapshot(id: 2, name: "b", lifecycle: .finished, outcome: .succeeded)
        var state = DashboardState(width: 100, height: 20)
        _ = reduce(&state, .tick(QueueSnapshot(operations: ChunkedArray([failed, succeeded]), version: 1)))
        let buffer = render(state)
        // Found by column title, whatever words the state column uses.
        func column(_ title: String) throws -> Int {
            let header = Array(buffer.line(3))
            let needle = Array(title)
            return try #require(
                (0...(header.count - needle.count)).first {
                    Array(header[$0..<($0 + needle.count)]) == needle
                })
        }
        func attributes(x: Int, row: Int) -> TextAttributes {
            resolve(buffer[x, row].style, hasColors: false).attributes
        }
        let word = try column("STATE")
        let why = try column("WHY")
        #expect(attributes(x: word, row: 4).contains(.underline))
        #expect(!attributes(x: word, row: 5).contains(.underline))
        #expect(attributes(x: word, row: 4) != attributes(x: word, row: 5))
        #expect(attributes(x: why, row: 4).contains(.underline))
    }

    @Test(arguments: [TerminalColor.blue, .cyan, .magenta, .white, .black])
    func monochromeDropsOtherForegrounds(_ color: TerminalColor) {
        #expect(resolve(CellStyle(foreground: color), hasColors: false).attributes.isEmpty)
    }

    @Test func monochromeTurnsBackgroundsIntoReverse() {
        let resolved = resolve(CellStyle(background: .blue, underline: true), hasColors: false)
        #expect(resolved.attributes == [.reverse, .underline])
        #expect(resolved.background == .default)
    }

    @Test func cursesColourNumbers() {
        #expect(cursesColorNumber(.default) == -1)
        #expect(cursesColorNumber(.black) == 0)
        #expect(cursesColorNumber(.red) == 1)
        #expect(cursesColorNumber(.green) == 2)
        #expect(cursesColorNumber(.yellow) == 3)
        #expect(cursesColorNumber(.white) == 7)
    }
}
