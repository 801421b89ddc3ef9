import BenchWorkloads
import Foundation

/// What every item reads: the run size, whether it is the CI smoke run, and repetitions per timing.
struct RatioRun {
    var size: BenchSize
    var smoke: Bool
    var reps: Int
}

/// One line of the Markdown table: a measured side, its baseline, the ratio and its budget.
struct Row {
    var item: String
    var compared: String
    var a: Stats  // measured side
    var b: Stats?  // baseline side
    var unit: String
    var ratio: Double
    var ratioText: String
    var budget: String
    var met: Bool?
}

/// Progress on stderr (stdout is the table).
func log(_ text: String) {
    FileHandle.standardError.write(Data("[ratios] \(text)\n".utf8))
}

/// `value` in `unit`, scaled to a readable prefix.
func fmt(_ value: Double, _ unit: String) -> String {
    switch unit {
    case "s":
        if value < 1e-3 { return String(format: "%.1f µs", value * 1e6) }
        if value < 1 { return String(format: "%.2f ms", value * 1e3) }
        return String(format: "%.2f s", value)
    case "ns": return String(format: "%.1f ns", value)
    case "B": return String(format: "%.0f B", value)
    case "MiB": return String(format: "%.1f MiB", value)
    case "ev/s": return String(format: "%.0f k/s", value / 1e3)
    case "core": return String(format: "%.2f%% of a core", value * 100)
    default: return String(format: "%.3g %@", value, unit)
    }
}

/// Alternates the two sides so drift hits both; returns stats of each.
func sideBySide(_ reps: Int, _ a: () -> Double, _ b: () -> Double) -> (Stats, Stats) {
    var sa: [Double] = [], sb: [Double] = []
    for _ in 0..<reps {
        sb.append(b())
        sa.append(a())
    }
    return (Stats(sa), Stats(sb))
}

/// A table cell: the median, or the p90 (p10 for rates, where lower is worse).
func cell(_ s: Stats?, _ unit: String, p90 higher: Bool) -> String {
    guard let s else { return "—" }
    if unit == "ev/s" { return higher ? fmt(s.percentile(0.1), unit) + " (p10)" : fmt(s.median, unit) }
    return higher ? fmt(s.p90, unit) : fmt(s.median, unit)
}
