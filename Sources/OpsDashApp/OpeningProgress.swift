import Foundation
import OpsDashUI
import OpsKit
import Synchronization

/// "opsdash: checking run.jsonl: 45% of 392.0 MB" on a terminal's stderr while a large recording
/// is opened with `--headless` or `--start-at` (every line is checked first: seconds for a
/// million operations), rewritten in
/// place and erased when done; nothing when stderr is not a terminal or the file opens quickly.
final class OpeningProgress: Sendable {
    // Locking: `state` (Mutex) is updated by the opening thread and erased by it or by the
    // signal watcher (a stop signal while opening).
    private struct State {
        var lastShown: ContinuousClock.Instant?
        /// Columns of the line on screen; 0 when none is.
        var shownWidth = 0
    }

    private let name: String
    private let descriptor: Int32
    private let isShown: Bool
    private let quietUntil: ContinuousClock.Instant
    private let state = OpsMutex(State())

    /// Progress after this long only: a small file opens without a word.
    static let quietFor = Duration.milliseconds(500)
    /// The file's name is cut to this many columns, so the line never wraps (a wrapped line is
    /// not rewritten in place).
    static let nameColumns = 32
    /// Time between two rewrites of the line.
    static let interval = Duration.milliseconds(200)

    /// Progress for opening `path`, on `descriptor` (stderr) if it is a terminal (`isTerminal`
    /// overrides the look, for tests), from `quietFor` on.
    init(path: String, descriptor: Int32 = 2, isTerminal: Bool? = nil, quietFor: Duration = quietFor) {
        name = Self.displayedName(of: path)
        self.descriptor = descriptor
        isShown = isTerminal ?? (isatty(descriptor) == 1)
        quietUntil = .now + quietFor
    }

    /// `path`'s last component, escaped and cut to `nameColumns`.
    static func displayedName(of path: String) -> String {
        let escaped = ControlCharacterEscaping.escape((path as NSString).lastPathComponent)
        guard DisplayWidth.of(escaped) > nameColumns else { return escaped }
        return DisplayWidth.prefix(escaped, columns: nameColumns - 1).text + "…"
    }

    /// The line for `read` of `size` bytes.
    static func line(name: String, read: UInt64, size: UInt64) -> String {
        let percent = size > 0 ? min(100, read * 100 / size) : 0
        return "opsdash: checking \(name): \(percent)% of \(Format.bytes(Int64(clamping: size)))"
    }

    /// Reports `read` of `size` bytes (the reader's `progress`).
    func update(read: UInt64, size: UInt64) {
        guard isShown else { return }
        let now = ContinuousClock.now
        guard now >= quietUntil else { return }
        state.withLock { state in
            guard state.lastShown.map({ now - $0 >= Self.interval }) ?? true else { return }
            state.lastShown = now
            let line = Self.line(name: name, read: read, size: size)
            let width = DisplayWidth.of(line)
            let padding = String(repeating: " ", count: max(0, state.shownWidth - width))
            state.shownWidth = width
            _ = StandardStreams.write("\r" + line + padding, to: descriptor)
        }
    }

    /// Erases the line, if one is shown.
    func finish() {
        state.withLock { state in
            guard state.shownWidth > 0 else { return }
            _ = StandardStreams.write("\r" + String(repeating: " ", count: state.shownWidth) + "\r", to: descriptor)
            state.shownWidth = 0
        }
    }
}
