import OpsDashUI
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

    @Test(arguments: [TerminalColor.red, .yellow, .green])
    func monochromeMakesStatusColoursBold(_ color: TerminalColor) {
        let resolved = resolve(CellStyle(foreground: color), hasColors: false)
        #expect(resolved.attributes == [.bold])
        #expect(resolved.foreground == .default)
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
