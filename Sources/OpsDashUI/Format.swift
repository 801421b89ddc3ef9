/// Human-readable formatting of bytes, rates, durations and percentages, without Foundation.
public enum Format {
    private static let units = ["B", "KB", "MB", "GB", "TB", "PB"]

    /// One decimal place, rounded half up: `12.34` → `"12.3"`.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A byte count in 1024-based units: `"512 B"`, `"12.3 MB"`, `"1.5 GB"`.
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

    /// A transfer rate: `"1.2 MB/s"`; empty when not moving.
    public static func rate(_ bytesPerSecond: Double) -> String {
        guard bytesPerSecond > 0, bytesPerSecond.isFinite else { return "" }
        return bytes(Int64(bytesPerSecond.rounded())) + "/s"
    }

    /// An elapsed time: `"0:07"`, `"1:05"`, `"59:59"`, `"2h03m"`, `"3d04h"`.
    public static func duration(_ duration: Duration) -> String {
        let total = max(0, duration.components.seconds)
        if total < 3600 { return "\(total / 60):\(twoDigits(total % 60))" }
        if total < 86_400 { return "\(total / 3600)h\(twoDigits(total % 3600 / 60))m" }
        return "\(total / 86_400)d\(twoDigits(total % 86_400 / 3600))h"
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
        guard remaining > 0, bytesPerSecond > 0, bytesPerSecond.isFinite else { return "" }
        let seconds = Double(remaining) / bytesPerSecond
        guard seconds < 1e9 else { return "" }
        return duration(.seconds(Int64(seconds.rounded(.up))))
    }

    /// A whole percentage, rounded down so that 100% means done: `0.456` → `"45%"`.
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "0%" }
        return "\(Int((min(1, max(0, fraction)) * 100).rounded(.down)))%"
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

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func scaled(_ value: Double) -> (Double, Int) {
        var value = value
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return (value, unit)
    }

    private static func power(_ unit: Int) -> Double {
        var result = 1.0
        for _ in 0..<unit { result *= 1024 }
        return result
    }
}
