import OpsMonitor
import Testing

@testable import OpsDashUI

/// A state change's log line written part by part into the cells (`LogView.writeStateLine`) is
/// cell for cell the line its spans draw, whatever the name, states, message, repeats, glyphs
/// and width.
@Suite struct LogStateLineTests {
    static let names: [(name: String?, addsID: Bool)] = [
        ("fetch.bin", false), ("BlockOperation #", true), (nil, false), ("", false), ("a b: c", false),
        ("naïve", false), ("日本語", false), ("tab\there", false),
    ]
    static let changes: [(from: Lifecycle, to: Lifecycle, outcome: Outcome?)] = [
        (.waiting, .ready, nil), (.ready, .executing, nil), (.executing, .finished, .succeeded),
        (.executing, .finished, .failed), (.ready, .finished, .cancelled),
    ]
    static let messages: [String?] = [nil, "timed out", "bad\u{1B}[31m", "ünïcode ✓"]

    @Test func isTheLineItsSpansDraw() {
        var lines: [LogLine] = []
        for (index, named) in Self.names.enumerated() {
            for change in Self.changes {
                for message in Self.messages {
                    let entry = LogEntry(
                        time: .milliseconds(61_300 + index), operationID: 7 + index * 1_000, name: named.name,
                        nameAddsID: named.addsID, from: change.from, to: change.to, outcome: change.outcome,
                        message: message)
                    lines.append(LogLine(entry: entry, repeats: 1))
                    lines.append(LogLine(entry: entry, repeats: 3))
                }
            }
        }
        var checked = 0
        for glyphs in [GlyphSet.unicode, .ascii] {
            for width in [120, 60, 30, 14, 10, 9, 3] {
                for line in lines {
                    let direct = draw(line, glyphs: glyphs, width: width, directly: true)
                    let spans = draw(line, glyphs: glyphs, width: width, directly: false)
                    #expect(direct == spans, "\(width) columns, \(glyphs): \(direct.line(1)) | \(spans.line(1))")
                    checked += 1
                }
            }
        }
        #expect(checked == 2 * 7 * Self.names.count * Self.changes.count * Self.messages.count * 2)
    }

    @Test func aPrintableNameIsWrittenDirectly() {
        // The cells say what the entry's text says, in the dashboard's state words.
        let entry = LogEntry(
            time: .seconds(5), operationID: 17, name: "BlockOperation #", nameAddsID: true, from: .executing,
            to: .finished, outcome: .succeeded, message: nil)
        let drawn = draw(LogLine(entry: entry, repeats: 1), glyphs: .unicode, width: 80, directly: true)
        #expect(drawn.line(1).hasPrefix("   0:05.0 #17 BlockOperation #17: running → succeeded"))
    }

    private func draw(_ line: LogLine, glyphs: GlyphSet, width: Int, directly: Bool) -> CellBuffer {
        var log = LogView(glyphs: glyphs, lines: [line])
        log.writesStatesDirectly = directly
        var buffer = CellBuffer(width: width, height: 2)
        log.render(into: &buffer, area: Rect(x: 0, y: 0, width: width, height: 2))
        return buffer
    }
}
