/// The figures after the header's overall bar: `"  12.3/45.6 MB  1.2 MB/s  ETA 0:30"`, or
/// `"  avg 1.2 MB/s"` once drained. Kept as the numbers they show, so that they are compared and
/// drawn as digits into the cells with no string built (the rate moves on almost every busy
/// frame); each figure is what `Format.bytes(_:of:)`, `Format.rate(_:showingZero:)` and
/// `Format.eta(completed:of:bytesPerSecond:)` write.
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
        etaSeconds =
            isDrained ? nil : Format.etaSeconds(completed: completed, of: total, bytesPerSecond: bytesPerSecond)
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
        canvas.writeScalars(x: x, y: y) { line in
            if let done, let total {
                line.put(ascii: "  ", style: .plain)
                done.put(into: &line, style: .plain)
                line.put("/", style: .plain)
                total.put(into: &line, style: .plain)
                line.put(" ", style: .plain)
                line.put(printableASCII: Format.unitName(total.unit), style: .plain)
            }
            line.put(ascii: "  ", style: .plain)
            if isAverage { line.put(ascii: "avg ", style: Theme.label) }
            let rateStyle = CellStyle(foreground: .cyan)
            rate.put(into: &line, style: rateStyle)
            line.put(" ", style: rateStyle)
            line.put(printableASCII: Format.unitName(rate.unit), style: rateStyle)
            line.put(ascii: "/s", style: rateStyle)
            if let etaSeconds {
                line.put(ascii: "  ETA ", style: Theme.label)
                line.put(duration: etaSeconds, style: .plain)
            }
        }
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

    /// Puts the number (without its unit).
    func put(into line: inout ScalarWriter, style: CellStyle) {
        guard unit > 0 else { return line.put(digits: Int(value), style: style) }
        line.put(digits: Int(value / 10), style: style)
        line.put(".", style: style)
        line.put(digits: Int(value % 10), style: style)
    }
}

extension ScalarWriter {
    /// Puts `seconds` (at least 0) as `Format.duration` writes it: `"1:05"`, `"2h05m"`, `"3d04h"`.
    mutating func put(duration seconds: Int64, style: CellStyle) {
        let (major, minor, separator) = Format.durationParts(seconds)
        put(digits: Int(major), style: style)
        switch separator {
        case ":": put(":", style: style)
        case "h": put("h", style: style)
        default: put("d", style: style)
        }
        if minor < 10 { put("0", style: style) }
        put(digits: Int(minor), style: style)
        switch separator {
        case ":": break
        case "h": put("m", style: style)
        default: put("h", style: style)
        }
    }
}
