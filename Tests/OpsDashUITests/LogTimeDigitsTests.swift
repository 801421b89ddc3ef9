import Testing

@testable import OpsDashUI

/// A log line's time is drawn as digits into the cells: exactly the cells of
/// `Format.fit(Format.timestamp(time), 9, right: true)` in the label style, however narrow the
/// area.
@Suite struct LogTimeDigitsTests {
    static let times: [Duration] = [
        .zero, .milliseconds(99), .milliseconds(100), .seconds(9), .milliseconds(59_999), .seconds(60),
        .milliseconds(605_200), .seconds(3_599), .seconds(3_600), .milliseconds(3_725_400), .seconds(35_999),
        .seconds(36_000), .seconds(359_999), .seconds(3_600_000), .seconds(-5), .milliseconds(-100),
    ]

    @Test func isTheTimestampFittedToNineColumns() {
        for time in Self.times {
            for width in [12, 9, 5, 1] {
                var drawn = CellBuffer(width: width, height: 1)
                drawn.draw(in: Rect(x: 0, y: 0, width: width, height: 1)) { LogView.writeTime(time, into: &$0, y: 0) }
                var written = CellBuffer(width: width, height: 1)
                written.write(
                    Format.fit(Format.timestamp(time), 9, right: true), x: 0, y: 0, style: Theme.label,
                    maxWidth: min(9, width))
                #expect(drawn == written, "\(time) in \(width) columns: \(drawn.line(0))")
            }
        }
    }
}
