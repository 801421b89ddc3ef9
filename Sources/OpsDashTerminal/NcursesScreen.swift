#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CNcurses
import CTerminalRestore
import OpsDashUI

/// The real terminal: an ncurses screen on `/dev/tty`. Not thread-safe; create, use and close
/// it on one thread.
public final class NcursesScreen: TerminalScreen {
    /// The glyphs this terminal's locale can show.
    public let glyphs: GlyphSet
    /// Whether the screen uses colours: the terminal has them and `NO_COLOR` is unset or empty
    /// (otherwise styles degrade to bold/reverse).
    public let hasColors: Bool
    /// Frames flushed to the terminal so far (one per non-empty `draw`).
    package private(set) var framesDrawn = 0

    private var screen: OpaquePointer?
    private var tty: UnsafeMutablePointer<FILE>?
    private var redirect: OutputRedirect?
    private var strayOutput: StrayOutputLog?
    /// After `close()`: where stdout and stderr went while the screen was up, if anything was
    /// written there (otherwise nothing was left behind).
    public private(set) var strayOutputPath: String?
    private var colorPairs: ColorPairs
    private var attributeCache: [ResolvedStyle: (attr_t, Int16)] = [:]

    /// Takes over the terminal. Throws `TerminalError` when stdout isn't a TTY, TERM can't run
    /// a full-screen program, or `/dev/tty` can't be opened. Stdout and stderr go to a
    /// `StrayOutputLog` in `logDirectory` while the screen is up.
    public convenience init(logDirectory: String) throws(TerminalError) {
        let term = getenv("TERM").map { String(cString: $0) }
        if let problem = checkInteractive(stdoutIsTTY: isatty(1) == 1, term: term) {
            throw problem
        }
        let glyphs = configureLocale()
        guard let file = fopen("/dev/tty", "r+") else { throw .noControllingTerminal }
        _ = opsdash_arm_terminal_restore(fileno(file))
        do {
            try self.init(
                file: file, term: term ?? "", glyphs: glyphs,
                noColor: environmentValue("NO_COLOR"), logDirectory: logDirectory)
        } catch {
            opsdash_disarm_terminal_restore()
            throw error
        }
    }

    /// Opens a screen on `file`, an already-open terminal device such as the slave side of a
    /// pseudo-terminal, of type `term`, and takes ownership of `file` (closed by `close()`).
    ///
    /// For measuring what the screen writes: it installs no crash handlers, leaves stdout and
    /// stderr alone, sizes the screen from the device (ignoring `LINES`/`COLUMNS`) and sets only
    /// the character-type locale. It draws in colour whatever `NO_COLOR` says (`swift test` sets
    /// it), as a user's terminal would. One such screen at a time per process, like any curses
    /// screen.
    convenience init(attachedTo file: UnsafeMutablePointer<FILE>, term: String) throws(TerminalError) {
        let glyphs = configureCharacterLocale()
        use_env(false)
        use_tioctl(true)
        try self.init(file: file, term: term, glyphs: glyphs, noColor: nil, logDirectory: nil)
    }

    /// Starts curses on `file` (owned from here on: closed on failure or by `close()`), in
    /// colour unless `noColor` is non-empty; with `logDirectory`, stdout and stderr go to a
    /// `StrayOutputLog` there while the screen is up.
    private init(
        file: UnsafeMutablePointer<FILE>, term: String, glyphs: GlyphSet, noColor: String?,
        logDirectory: String?
    ) throws(TerminalError) {
        guard let opened = newterm(term, file, file) else {
            fclose(file)
            throw TerminalError("TERM '\(term)' is not known to terminfo; use --headless")
        }
        self.glyphs = glyphs
        screen = opened
        tty = file
        _ = set_term(opened)
        _ = cbreak()
        _ = noecho()
        _ = nonl()
        _ = opsdash_keypad(true)
        _ = opsdash_scrollok(false)
        _ = curs_set(0)
        // The cursor is hidden: don't move it back to the last drawn run after every update.
        _ = opsdash_leaveok(true)
        _ = set_escdelay(25)
        var colors = false
        var defaultColors = false
        if usesColor(terminalHasColors: has_colors(), noColor: noColor) {
            colors = start_color() != ERR
            defaultColors = colors && use_default_colors() != ERR
        }
        hasColors = colors
        colorPairs = ColorPairs(limit: Int(opsdash_color_pairs()), defaultColors: defaultColors)
        strayOutput = logDirectory.flatMap { StrayOutputLog(directory: $0) }
        redirect = strayOutput.flatMap { OutputRedirect(to: $0.descriptor) }
        // One frame, one write(2): curses buffers its output and flushes it at the end of each
        // refresh, except on a screen that never went through endwin(), where it also flushes
        // after every cursor move (ncurses 6.4 treats it as not yet initialised). Suspending
        // once here makes the first refresh resume it as a running screen.
        _ = endwin()
        _ = wclear(opsdash_stdscr())
        _ = opsdash_refresh()
        // Curses switches the keypad mode on at its first read; do that read now, so it is part
        // of the setup rather than a write of its own in some later frame.
        _ = opsdash_timeout(0)
        var typed: wint_t = 0
        let result = opsdash_get_wch(&typed)
        if result == OK { _ = unget_wch(wchar_t(bitPattern: typed)) }
        if result == KEY_CODE_YES { _ = ungetch(Int32(bitPattern: typed)) }
    }

    deinit { close() }

    /// The current size in cells.
    public var size: TerminalSize {
        guard screen != nil else { return TerminalSize(width: 0, height: 0) }
        var y: Int32 = 0
        var x: Int32 = 0
        opsdash_getmaxyx(&y, &x)
        return TerminalSize(width: Int(x), height: Int(y))
    }

    /// Writes each run at its position and flushes once; an empty list writes and flushes nothing.
    ///
    /// A wide character's lead cell becomes one two-column `cchar_t` and its continuation cell
    /// is skipped (curses fills the second column itself); where curses would measure the
    /// character differently, it is drawn narrow and followed by a space, so columns never shift.
    public func draw(_ runs: [CellRun]) {
        guard screen != nil, !runs.isEmpty else { return }
        let current = size
        var line: [cchar_t] = []
        for run in runs where run.y >= 0 && run.y < current.height && run.x < current.width {
            let skip = max(0, -run.x)
            let count = min(run.slice.count - skip, current.width - max(0, run.x))
            guard count > 0 else { continue }
            line.removeAll(keepingCapacity: true)
            // The cells are a slice of the frame's: indexed from their start, not from 0.
            let cells = run.slice
            var index = cells.startIndex + skip
            let end = index + count
            while index < end {
                let cell = cells[index]
                if cell.isContinuation {
                    // Its lead is off this run (cut at the left edge): keep the column blank.
                    line.append(cchar(for: Cell(" ", style: cell.style)))
                    index += 1
                } else if cell.width == 2 {
                    let fits = index + 1 < end
                    if fits, let wide = wideCchar(for: cell) {
                        line.append(wide)
                    } else {
                        line.append(cchar(for: Cell(narrowStandIn(cell.character), style: cell.style)))
                        if fits { line.append(cchar(for: Cell(" ", style: cell.style))) }
                    }
                    index += 2
                } else {
                    line.append(cchar(for: cell))
                    index += 1
                }
            }
            // add_wchnstr copies cells without moving the cursor, so the bottom-right cell
            // never scrolls the screen.
            _ = line.withUnsafeBufferPointer { buffer in
                opsdash_put_cells(Int32(run.y), Int32(max(0, run.x)), buffer.baseAddress, Int32(buffer.count))
            }
        }
        _ = opsdash_refresh()
        framesDrawn += 1
    }

    /// Waits up to `timeoutMilliseconds` for a key or a resize; nil on timeout or ignored input,
    /// `.closed` when the terminal hung up or reading it finds end of file or an error.
    public func readInput(timeoutMilliseconds: Int) -> TerminalInput? {
        guard screen != nil, let tty else { return nil }
        // Wait here rather than in curses: curses reports a dead terminal exactly like a
        // timeout, and returns at once, so a loop over it would spin.
        let descriptor = fileno(tty)
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&watched, 1, Int32(clamping: max(0, timeoutMilliseconds)))
        if ready > 0 && watched.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .closed }
        // Readable with nothing to read is end of file (or an error).
        let readable = ready > 0 && watched.revents & Int16(POLLIN) != 0
        if readable && opsdash_bytes_readable(descriptor) <= 0 { return .closed }
        _ = opsdash_timeout(0)
        var character: wint_t = 0
        let result = opsdash_get_wch(&character)
        if result == ERR { return nil }
        let code = Int32(bitPattern: UInt32(character))
        let isKeyCode = result == KEY_CODE_YES
        if isKeyCode && code == CursesKeyCode.resize {
            _ = opsdash_clearok(true)
            let current = size
            return .resize(width: current.width, height: current.height)
        }
        return mapKey(code: code, isKeyCode: isKeyCode).map(TerminalInput.key)
    }

    /// The next refresh clears the terminal and sends every cell, whatever curses believes is
    /// on it (Ctrl-L: another program wrote over the dashboard).
    public func clearOnNextDraw() {
        guard screen != nil else { return }
        _ = opsdash_clearok(true)
    }

    /// Ends curses, frees the screen, closes `/dev/tty` and restores stdout/stderr; idempotent.
    public func close() {
        guard let opened = screen else { return }
        screen = nil
        _ = curs_set(1)
        _ = endwin()
        delscreen(opened)
        opsdash_disarm_terminal_restore()
        if let file = tty { fclose(file) }
        tty = nil
        redirect?.restore()
        redirect = nil
        strayOutputPath = strayOutput?.close()
        strayOutput = nil
    }

    /// A one-column cell as curses sees it: the first scalar and the zero-width marks after it
    /// (never a joiner), `?` for anything curses would not show in exactly one column.
    private func cchar(for cell: Cell) -> cchar_t {
        var text = spacingText(cell.character, columns: 1) ?? [0x3f]
        text.append(0)
        return makeCchar(text, style: cell.style)
    }

    /// A wide lead cell as one two-column `cchar_t`, or nil when curses would not measure it as
    /// two columns (or the locale can't show it).
    private func wideCchar(for cell: Cell) -> cchar_t? {
        guard var text = spacingText(cell.character, columns: 2) else { return nil }
        text.append(0)
        return makeCchar(text, style: cell.style)
    }

    /// The scalars to send for `character` if curses measures them as `columns` wide: the
    /// first scalar, then the zero-width ones that follow it up to curses' limit, stopping at a
    /// zero-width joiner (terminals disagree on how wide a joined sequence is). Nil otherwise.
    private func spacingText(_ character: Character, columns: Int) -> [wchar_t]? {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return nil }
        if !glyphs.isUnicode && first.value > 0x7e { return nil }
        let firstCode = wchar_t(bitPattern: first.value)
        guard Int(opsdash_wcwidth(firstCode)) == columns else { return nil }
        var text = [firstCode]
        for scalar in scalars.dropFirst() {
            let code = wchar_t(bitPattern: scalar.value)
            guard text.count < 4, scalar.value != 0x200D, opsdash_wcwidth(code) == 0 else { break }
            text.append(code)
        }
        return text
    }

    /// What a wide character that can't be drawn two columns wide shows in one column: its
    /// first scalar when curses measures that as one column, else `?`.
    private func narrowStandIn(_ character: Character) -> Character {
        guard let first = character.unicodeScalars.first, glyphs.isUnicode || first.value <= 0x7e,
            opsdash_wcwidth(wchar_t(bitPattern: first.value)) == 1
        else { return "?" }
        return Character(first)
    }

    private func makeCchar(_ text: [wchar_t], style: CellStyle) -> cchar_t {
        let (attrs, pair) = attributes(for: style)
        var result = cchar_t()
        _ = opsdash_set_cell(&result, text, attrs, pair)
        return result
    }

    private func attributes(for style: CellStyle) -> (attr_t, Int16) {
        let resolved = resolve(style, hasColors: hasColors)
        if let cached = attributeCache[resolved] { return cached }
        var attrs = opsdash_a_normal()
        if resolved.attributes.contains(.bold) { attrs |= opsdash_a_bold() }
        if resolved.attributes.contains(.dim) { attrs |= opsdash_a_dim() }
        if resolved.attributes.contains(.reverse) { attrs |= opsdash_a_reverse() }
        if resolved.attributes.contains(.underline) { attrs |= opsdash_a_underline() }
        let pair =
            hasColors
            ? colorPairs.pair(foreground: resolved.foreground, background: resolved.background) : 0
        attributeCache[resolved] = (attrs, pair)
        return (attrs, pair)
    }
}

extension GlyphSet {
    fileprivate var isUnicode: Bool { self == .unicode }
}
