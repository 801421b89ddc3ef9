/// The figures after the header's overall bar: `"  12.3/45.6 MB  1.2 MB/s  ETA 0:30"`, or
/// `"  avg 1.2 MB/s"` once drained. Kept as the numbers they show, so that they are compared and
/// drawn as digits into the cells with no string built (the rate moves on almost every busy
/// frame); each figure is what `Format.bytes(_:of:)`, `Format.rate(_:showingZero:)` and
/// `Format.eta(remaining:bytesPerSecond:)` write.
struct ProgressFigures: Equatable {
    /// Bytes done and in all, in the total's unit; nil without a total.
    var done: ScaledFigure?
    var total: ScaledFigure?
    /// The rate shown: the current one, or the whole run's average once drained.
    var rate: ScaledFigure
    var isAverage: Bool
    /// Seconds left, rounded up; nil when no ETA shows.
    var etaSeconds: Int64?

    /// The figures for bytes `completed` of `total`, moving at `bytesPerSecond` (the run's
    /// average `averageBytesPerSecond` once `isDrained`).
    init(
        completed: Int64, total: Int64, bytesPerSecond: Double, averageBytesPerSecond: Double, isDrained: Bool
    ) {
        if total > 0 {
            let unit = Format.scaled(Double(total)).unit
            self.done = ScaledFigure(max(0, completed), unit: unit)
            self.total = ScaledFigure(total, unit: unit)
        }
        let shown = isDrained ? averageBytesPerSecond : bytesPerSecond
        rate = ScaledFigure(shown > 0 && shown.isFinite ? max(0, Int64(clampingRounded: shown)) : 0)
        isAverage = isDrained
        // A peer's picture may hold any counts: a difference past Int64 shows no ETA.
        let (remaining, overflow) = total.subtractingReportingOverflow(completed)
        etaSeconds =
            isDrained || overflow ? nil : Format.etaSeconds(remaining: remaining, bytesPerSecond: bytesPerSecond)
    }

    /// Columns the figures take.
    var columns: Int {
        var columns = 0
        if let done, let total {
            // "  " done "/" total " " unit
            columns += 2 + done.digitColumns + 1 + total.digitColumns + 1 + Format.unitName(total.unit).utf8.count
        }
        // "  " ["avg "] rate " " unit "/s"
        columns += 2 + (isAverage ? 4 : 0) + rate.digitColumns + 1 + Format.unitName(rate.unit).utf8.count + 2
        if let etaSeconds { columns += 6 + Format.durationColumns(etaSeconds) }
        return columns
    }

    /// Draws the figures from (`x`, `y`); returns the column after them.
    func write(into canvas: inout Canvas, x: Int, y: Int) -> Int {
        var x = x
        if let done, let total {
            x = canvas.write("  ", x: x, y: y)
            x = done.write(into: &canvas, x: x, y: y, style: .plain)
            x = canvas.write("/", x: x, y: y)
            x = total.write(into: &canvas, x: x, y: y, style: .plain)
            x = canvas.write(" ", x: x, y: y)
            x = canvas.write(Format.unitName(total.unit), x: x, y: y)
        }
        x = canvas.write("  ", x: x, y: y)
        if isAverage { x = canvas.write("avg ", x: x, y: y, style: Theme.label) }
        let rateStyle = CellStyle(foreground: .cyan)
        x = rate.write(into: &canvas, x: x, y: y, style: rateStyle)
        x = canvas.write(" ", x: x, y: y, style: rateStyle)
        x = canvas.write(Format.unitName(rate.unit), x: x, y: y, style: rateStyle)
        x = canvas.write("/s", x: x, y: y, style: rateStyle)
        if let etaSeconds {
            x = canvas.write("  ETA ", x: x, y: y, style: Theme.label)
            x = canvas.writeDuration(etaSeconds, x: x, y: y)
        }
        return x
    }
}

/// A byte count as `Format` shows it: the whole number of bytes (unit 0, `"512"`), or tenths of
/// its SI unit (`"12.3"` of MB, unit 2).
struct ScaledFigure: Equatable {
    /// The bytes at unit 0, else tenths of the unit.
    var value: Int64
    /// 0 for B, 1 for kB, 2 for MB, …
    var unit: Int

    /// `count` (at least 0) in the unit `Format.bytes(_:)` picks for it.
    init(_ count: Int64) {
        // The value as `scaled` divided it (a step at a time), as `Format.bytes(_:)` writes it.
        let (scaled, unit) = Format.scaled(Double(count))
        self.unit = unit
        value = unit == 0 ? count : Int64(Format.tenths(scaled))
    }

    /// `count` (at least 0) in unit `unit`, as `Format.bytes(_:of:)` writes a count in the
    /// total's unit.
    init(_ count: Int64, unit: Int) {
        self.unit = unit
        value = unit == 0 ? count : Int64(Format.tenths(Double(count) / Format.power(unit)))
    }

    /// Columns of the number (without its unit).
    var digitColumns: Int {
        unit == 0 ? Digits.count(Int(value)) : Digits.count(Int(value / 10)) + 2
    }

    /// Draws the number (without its unit) from (`x`, `y`); returns the column after it.
    func write(into canvas: inout Canvas, x: Int, y: Int, style: CellStyle) -> Int {
        guard unit > 0 else { return canvas.writeDigits(Int(value), x: x, y: y, style: style) }
        let x = canvas.writeDigits(Int(value / 10), x: x, y: y, style: style)
        canvas[x, y] = Cell(scalar: ".", style: style)
        return canvas.writeDigits(Int(value % 10), x: x + 1, y: y, style: style)
    }
}

extension Canvas {
    /// Writes `seconds` (at least 0) as `Format.duration` does (`"1:05"`, `"2h05m"`,
    /// `"3d04h"`) from (`x`, `y`); returns the column after it.
    mutating func writeDuration(_ seconds: Int64, x: Int, y: Int, style: CellStyle = .plain) -> Int {
        let (major, minor, separator) = Format.durationParts(seconds)
        var x = writeDigits(Int(major), x: x, y: y, style: style)
        if separator == ":" {
            x = write(":", x: x, y: y, style: style)
        } else {
            x = write(separator == "h" ? "h" : "d", x: x, y: y, style: style)
        }
        if minor < 10 { x = write("0", x: x, y: y, style: style) }
        x = writeDigits(Int(minor), x: x, y: y, style: style)
        if separator != ":" { x = write(separator == "h" ? "m" : "h", x: x, y: y, style: style) }
        return x
    }
}
