import OpsKit
import OpsMonitor

/// Human-readable formatting of bytes, rates, durations and percentages, without Foundation.
///
/// The one byte formatter of the dashboard, the headless status line and the summary: SI units
/// (1 kB = 1000 B, 1 MB = 1000 kB), one decimal place.
public enum Format {
    private static let units = ["B", "kB", "MB", "GB", "TB", "PB"]
    /// SI prefixes for counts that are not bytes (work units).
    private static let prefixes = ["", "k", "M", "G", "T", "P"]

    /// One decimal place, rounded half up: `12.34` → `"12.3"`.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = tenths(value)
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `value` (at least 0) in tenths, rounded half up: what `oneDecimal(_:)` writes.
    static func tenths(_ value: Double) -> Int {
        Int((max(0, value) * 10).rounded())
    }

    /// A byte count in SI units: `"512 B"`, `"12.3 MB"`, `"1.5 GB"`.
    public static func bytes(_ count: Int64) -> String {
        let (value, unit) = scaled(Double(max(0, count)))
        return unit == 0 ? "\(max(0, count)) B" : "\(oneDecimal(value)) \(units[unit])"
    }

    /// Completed and total bytes in the total's unit: `"12.3/45.6 MB"`, `"0.3/2.0 MB"`.
    public static func bytes(_ done: Int64, of total: Int64) -> String {
        guard total > 0 else { return done > 0 ? bytes(done) : "" }
        let done = max(0, done)
        let (_, unit) = scaled(Double(total))
        guard unit > 0 else { return "\(done)/\(total) B" }
        let divisor = power(unit)
        return
            "\(oneDecimal(Double(done) / divisor))/\(oneDecimal(Double(total) / divisor)) \(units[unit])"
    }

    /// A transfer rate: `"1.2 MB/s"`; empty when not moving, or `"0 B/s"` with `showingZero`.
    public static func rate(_ bytesPerSecond: Double, showingZero: Bool = false) -> String {
        guard bytesPerSecond > 0, bytesPerSecond.isFinite else { return showingZero ? "0 B/s" : "" }
        // A peer's picture may carry any rate: clamped, not an Int64 overflow.
        return bytes(Int64(clampingRounded: bytesPerSecond)) + "/s"
    }

    /// A count of work units with an SI prefix: `"512"`, `"1.5k"`, `"2.0M"`.
    public static func units(_ count: Int64) -> String {
        let (value, unit) = scaled(Double(max(0, count)))
        return unit == 0 ? "\(max(0, count))" : "\(oneDecimal(value))\(prefixes[unit])"
    }

    /// Completed and total work units in the total's prefix: `"250/800 units"`,
    /// `"0.2/1.5k units"`; empty when the total is unknown and nothing is done.
    public static func units(_ done: Int64, of total: Int64) -> String {
        guard total > 0 else { return done > 0 ? units(done) + " units" : "" }
        let done = max(0, done)
        let (_, unit) = scaled(Double(total))
        guard unit > 0 else { return "\(done)/\(total) units" }
        let divisor = power(unit)
        return "\(oneDecimal(Double(done) / divisor))/\(oneDecimal(Double(total) / divisor))\(prefixes[unit]) units"
    }

    /// A rate of work units: `"1.5k/s"`; empty when not moving.
    public static func unitRate(_ perSecond: Double) -> String {
        guard perSecond > 0, perSecond.isFinite else { return "" }
        return units(Int64(clampingRounded: perSecond)) + "/s"
    }

    /// How fast simulated time runs, for the elapsed clock: `"×20"`, `"×0.5"`, `"x2.5"` in
    /// ASCII; empty at real time.
    public static func speed(_ speed: Double, ascii: Bool = false) -> String {
        guard speed.isFinite, speed > 0, speed != 1 else { return "" }
        let times = ascii ? "x" : "×"
        let hundredths = Int((speed * 100).rounded())
        if hundredths % 100 == 0 { return "\(times)\(hundredths / 100)" }
        if hundredths % 10 == 0 { return "\(times)\(hundredths / 100).\(hundredths / 10 % 10)" }
        let fraction = hundredths % 100
        return "\(times)\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// An elapsed time: `"0:07"`, `"1:05"`, `"59:59"`, `"2h03m"`, `"3d04h"`.
    public static func duration(_ duration: Duration) -> String {
        let (major, minor, separator) = durationParts(duration.components.seconds)
        switch separator {
        case ":": return "\(major):\(twoDigits(minor))"
        case "h": return "\(major)h\(twoDigits(minor))m"
        default: return "\(major)d\(twoDigits(minor))h"
        }
    }

    /// What `duration(_:)` shows of `seconds` (below 0: 0): minutes and seconds (`":"`), hours
    /// and minutes (`"h"`), or days and hours (`"d"`).
    static func durationParts(_ seconds: Int64) -> (major: Int64, minor: Int64, separator: Character) {
        let total = max(0, seconds)
        if total < 3600 { return (total / 60, total % 60, ":") }
        if total < 86_400 { return (total / 3600, total % 3600 / 60, "h") }
        return (total / 86_400, total % 86_400 / 3600, "d")
    }

    /// Columns `duration(_:)` takes for `seconds`.
    static func durationColumns(_ seconds: Int64) -> Int {
        let (major, _, separator) = durationParts(seconds)
        return Digits.count(Int(major)) + (separator == ":" ? 3 : 4)
    }

    /// A short span of time: `"0.2s"`, `"9.9s"` (tenths under 10 s), `"42s"`, then as
    /// `duration(_:)`: `"1:05"`.
    static func seconds(_ duration: Duration) -> String {
        let value = max(0, duration.seconds)
        if value < 9.95 { return oneDecimal(value) + "s" }
        if value < 59.5 { return "\(Int(value.rounded()))s" }
        return Format.duration(duration)
    }

    /// Time until something starts, rounded up and short enough for the WHY column: `"3s"`,
    /// `"59s"`, `"2m"` (from 61 s), `"1h05m"`.
    public static func countdown(_ left: Duration) -> String {
        let seconds = Int64(max(0, left.seconds).rounded(.up))
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\((seconds + 59) / 60)m" }
        return duration(.seconds(seconds))
    }

    /// A timestamp with tenths, for logs and histories: `"1:05.2"`, `"1:02:05.2"`.
    public static func timestamp(_ time: Duration) -> String {
        let (seconds, attoseconds) = time.components
        let tenths = max(0, seconds) * 10 + max(0, attoseconds) / 100_000_000_000_000_000
        let whole = tenths / 10
        let minutes = whole / 60
        let stamp = "\(twoDigits(whole % 60)).\(tenths % 10)"
        if minutes < 60 { return "\(minutes):\(stamp)" }
        return "\(minutes / 60):\(twoDigits(minutes % 60)):\(stamp)"
    }

    /// Time left to move `remaining` bytes at `bytesPerSecond`; empty when unknown.
    public static func eta(remaining: Int64, bytesPerSecond: Double) -> String {
        etaSeconds(remaining: remaining, bytesPerSecond: bytesPerSecond).map { duration(.seconds($0)) } ?? ""
    }

    /// The ETA of `completed` units of `total` at `bytesPerSecond`: `eta(remaining:bytesPerSecond:)`
    /// of what is left, or nothing when the two are more than Int64 apart (a peer's picture may
    /// hold any counts).
    package static func eta(completed: Int64, of total: Int64, bytesPerSecond: Double) -> String {
        etaSeconds(completed: completed, of: total, bytesPerSecond: bytesPerSecond).map { duration(.seconds($0)) }
            ?? ""
    }

    /// The seconds `eta(completed:of:bytesPerSecond:)` shows; nil when it shows none.
    static func etaSeconds(completed: Int64, of total: Int64, bytesPerSecond: Double) -> Int64? {
        let (remaining, overflow) = total.subtractingReportingOverflow(completed)
        return overflow ? nil : etaSeconds(remaining: remaining, bytesPerSecond: bytesPerSecond)
    }

    /// The seconds `eta(remaining:bytesPerSecond:)` shows, rounded up; nil when it shows none.
    static func etaSeconds(remaining: Int64, bytesPerSecond: Double) -> Int64? {
        guard remaining > 0, bytesPerSecond > 0, bytesPerSecond.isFinite else { return nil }
        let seconds = Double(remaining) / bytesPerSecond
        guard seconds < 1e9 else { return nil }
        return Int64(seconds.rounded(.up))
    }

    /// A whole percentage, rounded down so that 100% means done: `0.456` → `"45%"`.
    public static func percent(_ fraction: Double) -> String {
        "\(wholePercent(fraction))%"
    }

    /// The number `percent(_:)` shows: 0 to 100, rounded down, 0 for a fraction that is not finite.
    static func wholePercent(_ fraction: Double) -> Int {
        guard fraction.isFinite else { return 0 }
        return Int((min(1, max(0, fraction)) * 100).rounded(.down))
    }

    /// Pads or clips `text` to exactly `width` columns (display columns: a wide character
    /// counts 2 and is never cut in half), aligned left or right; clipped text ends in
    /// `ellipsis`.
    static func fit(_ text: String, _ width: Int, right: Bool = false, ellipsis: Character = "…")
        -> String
    {
        guard width > 0 else { return "" }
        let text = displayable(text)
        let count = DisplayWidth.of(text)
        if count > width {
            guard width > 1 else { return String(ellipsis) }
            let (head, used) = DisplayWidth.prefix(text, columns: width - 1)
            return head + String(repeating: " ", count: width - 1 - used) + String(ellipsis)
        }
        let padding = String(repeating: " ", count: width - count)
        return right ? padding + text : text + padding
    }

    /// Pads or clips `text` to exactly `width` columns like `fit`, but clips inside: what is
    /// left out is a run of characters with no digit in it, as near the middle as there is one
    /// (else the middle run), so names that differ only by a number stay apart:
    /// `download image-3.jpg` in 15 columns is `downloa…e-3.jpg`, `upload image-1-filtered.jpg`
    /// in 18 is `upload image-1…jpg`. Display columns: a wide character counts 2 and is never
    /// cut in half. O(length of `text`).
    static func fitMiddle(_ text: String, _ width: Int, ellipsis: Character = "…") -> String {
        guard width > 0 else { return "" }
        let text = displayable(text)
        let total = DisplayWidth.of(text)
        guard total > width else { return text + String(repeating: " ", count: width - total) }
        guard width > 1 else { return String(ellipsis) }
        let characters = Array(text)
        let widths = characters.map { DisplayWidth.of($0) }
        // ASCII digits: `isNumber` is also true of CJK numerals such as 一.
        func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
        let overflow = total - (width - 1)
        // Slide a window [start, end) removing at least `overflow` columns over the characters;
        // keep the best: digit-free first, then nearest the middle, then the later one.
        var best: (start: Int, end: Int, digitFree: Bool, distance: Int)?
        var end = 0
        var removed = 0
        var digits = 0
        var before = 0  // columns before `start`
        for start in 0..<characters.count {
            while end < characters.count && removed < overflow {
                removed += widths[end]
                if isDigit(characters[end]) { digits += 1 }
                end += 1
            }
            guard removed >= overflow else { break }
            let distance = abs(2 * before + removed - total)
            let digitFree = digits == 0
            if let current = best {
                if (digitFree && !current.digitFree) || (digitFree == current.digitFree && distance <= current.distance)
                {
                    best = (start, end, digitFree, distance)
                }
            } else {
                best = (start, end, digitFree, distance)
            }
            removed -= widths[start]
            if isDigit(characters[start]) { digits -= 1 }
            before += widths[start]
        }
        guard let best else { return String(ellipsis) + String(repeating: " ", count: width - 1) }
        let head = String(characters[..<best.start])
        let tail = String(characters[best.end...])
        let used = DisplayWidth.of(head) + 1 + DisplayWidth.of(tail)
        return head + String(ellipsis) + tail + String(repeating: " ", count: max(0, width - used))
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// The name of unit `unit` (`scaled(_:)`'s): `"B"`, `"kB"`, `"MB"`, …
    static func unitName(_ unit: Int) -> String {
        units[min(max(0, unit), units.count - 1)]
    }

    /// `value` divided by 1000 while it would show as 1000.0 or more, and the unit it is then in.
    static func scaled(_ value: Double) -> (value: Double, unit: Int) {
        var value = value
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return (value, unit)
    }

    /// 1000 to the power `unit`.
    static func power(_ unit: Int) -> Double {
        var result = 1.0
        for _ in 0..<unit { result *= 1000 }
        return result
    }
}
