import ArgumentParser
import OpsMonitor

/// `--history-window DURATION`: how many seconds of per-second history the monitor (or an
/// attached viewer) keeps, as `90s`, `15m`, `2h` or plain seconds; 2 s to 24 h.
enum HistoryWindowOption {
    /// The flag's help line.
    static let help = ArgumentHelp(
        "Seconds of per-second history kept for the h view and the header's sparklines, e.g. 90s, 15m, 2h (2s...24h; default 15m; 32 bytes a second).",
        valueName: "duration")

    /// The flag's help line for `opsdash attach`.
    static let attachHelp = ArgumentHelp(
        "Seconds of history this viewer keeps: the app's history, sent on joining, cut to it, then each second this viewer sees (2s...24h; default 15m).",
        valueName: "duration")

    /// The shortest and the longest window, in seconds.
    static let range = 2...86_400

    /// `text` as seconds; throws the one-line error when it is not a duration within `range`.
    static func seconds(_ text: String) throws -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600]
        var digits = Substring(text)
        var scale = 1
        if let last = digits.last, let unit = units[last] {
            scale = unit
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let count = Int(digits), count <= range.upperBound, range.contains(count * scale)
        else {
            throw ValidationError(
                "--history-window must be a duration from 2s to 24h, e.g. 90s, 15m or 2h (got \(text))")
        }
        return count * scale
    }

    /// The monitor's limits for `--history-window` (nil: the default window).
    static func limits(_ text: String?) -> MonitorStore.Limits {
        guard let text, let seconds = try? seconds(text) else { return MonitorStore.Limits() }
        return MonitorStore.Limits(historySeconds: seconds)
    }
}
