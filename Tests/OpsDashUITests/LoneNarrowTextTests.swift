import Testing

@testable import OpsDashUI

/// Text made only of scalars that are one-column graphemes of their own (`DisplayWidth.isLoneNarrow`)
/// is measured and written one cell per scalar; that must give exactly what measuring and writing
/// it grapheme by grapheme gives.
@Suite struct LoneNarrowTextTests {
    /// Every scalar the fast path takes, each alone and next to its neighbours and ASCII.
    static var samples: [String] {
        var scalars: [Unicode.Scalar] = []
        for range in [0x20...0x7E, 0xA0...0x2FF, 0x2190...0x21FF, 0x2500...0x259F] {
            for value in range { if let scalar = Unicode.Scalar(value) { scalars.append(scalar) } }
        }
        var texts = scalars.map { "a\(Character($0))b" }
        for start in stride(from: 0, to: scalars.count, by: 16) {
            var text = ""
            for scalar in scalars[start..<min(scalars.count, start + 16)] { text.unicodeScalars.append(scalar) }
            texts.append(text)
        }
        texts += ["chunk-12.bin: running → succeeded", "▁▂▃▄▅▆▇█", "███████▌    ", "Müller ½ ─── ʰ"]
        return texts
    }

    @Test func everySuchScalarIsOneColumnAndAGraphemeOfItsOwn() {
        for text in Self.samples {
            #expect(text.count == text.unicodeScalars.count, "\(text)")
            #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text)")
            #expect(DisplayWidth.of(text) == text.unicodeScalars.count, "\(text)")
        }
    }

    @Test func writingItGivesTheCellsWritingGraphemeByGraphemeGives() {
        for text in Self.samples {
            for (lower, limit) in [(0, 40), (3, 9), (0, 2)] {
                var fast = CellBuffer(width: 40, height: 1)
                var general = CellBuffer(width: 40, height: 1)
                let end = fast.write(text, x: 1, y: 0, style: .plain, from: lower, to: limit)
                let generalEnd = general.writeGraphemes(text, x: 1, y: 0, style: .plain, from: lower, to: limit)
                #expect(end == generalEnd, "\(text)")
                #expect(fast == general, "\(text)")
            }
        }
    }

    @Test func textWithAMarkAControlOrAWideCharacterTakesTheGeneralPath() {
        #expect(!"e\u{301}".unicodeScalars.allSatisfy { DisplayWidth.isLoneNarrow($0.value) })
        #expect(!"a\r\nb".unicodeScalars.allSatisfy { DisplayWidth.isLoneNarrow($0.value) })
        #expect(!"漢".unicodeScalars.allSatisfy { DisplayWidth.isLoneNarrow($0.value) })
        var buffer = CellBuffer(width: 10, height: 1)
        #expect(buffer.write("e\u{301}x", x: 0, y: 0, style: .plain, from: 0, to: 10) == 2)
        #expect(buffer.write("漢", x: 0, y: 0, style: .plain, from: 0, to: 10) == 2)
    }
}
