/// Recording times on `opsdash replay`'s command line (`--start-at`, `--idle-limit`): parsing,
/// the ranges accepted, and how a time is shown in a message.
enum ReplayTime {
    /// The latest `--start-at` accepted: 9999:59:59 (a recording ends long before).
    static let maximumStart: Duration = .seconds(9999 * 3600 + 59 * 60 + 59)
    /// The shortest and the longest `--idle-limit`, in seconds.
    static let idleLimitRange = 0.001...1_000_000.0

    /// "90", "12.5", "1:30", "1:02:03.5" → a duration; nil if malformed or out of range. The
    /// first field takes any whole number (or, alone, decimal seconds); a minutes or seconds
    /// field after it must be below 60, and the whole at most `maximumStart`.
    static func parse(_ text: String) -> Duration? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var milliseconds: Int64 = 0
        for (index, part) in parts.enumerated() {
            let isSeconds = index == parts.count - 1
            guard let value = field(part, fraction: isSeconds) else { return nil }
            if index > 0, value >= 60_000 { return nil }
            // Checked before it is multiplied, so no field can overflow.
            guard value <= Int64(maximumStart.components.seconds) * 1000 else { return nil }
            milliseconds = milliseconds * 60 + value
            guard milliseconds <= Int64(maximumStart.components.seconds) * 1000 else { return nil }
        }
        return .milliseconds(milliseconds)
    }

    /// One field in milliseconds: digits, and for the seconds field an optional `.` and up to
    /// three more digits (rounded to the millisecond beyond that).
    private static func field(_ text: Substring, fraction: Bool) -> Int64? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, !whole.isEmpty, whole.count <= 12, whole.allSatisfy(\.isASCIIDigit) else {
            return nil
        }
        var milliseconds = (Int64(whole) ?? 0) * 1000
        if pieces.count == 2 {
            let decimals = pieces[1]
            guard fraction, !decimals.isEmpty, decimals.allSatisfy(\.isASCIIDigit) else { return nil }
            let digits = Array(decimals.prefix(4)) + Array(repeating: "0", count: max(0, 4 - decimals.count))
            let tenThousandths = Int64(String(digits)) ?? 0
            milliseconds += (tenThousandths + 5) / 10
        }
        return milliseconds
    }

    /// A time in a message: `0:30.224`, `1:02:03.500` (milliseconds, as recordings keep them).
    static func text(_ time: Duration) -> String {
        let total = max(0, time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000)
        let seconds = total / 1000
        let fraction = String(total % 1000)
        let milliseconds = String(repeating: "0", count: 3 - fraction.count) + fraction
        let minutes = seconds / 60 % 60
        let secondsText = (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60).\(milliseconds)"
        guard seconds >= 3600 else { return "\(seconds / 60):\(secondsText)" }
        return "\(seconds / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(secondsText)"
    }
}

extension Character {
    /// 0-9 only (not other scripts' digits, which `isNumber` accepts).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
