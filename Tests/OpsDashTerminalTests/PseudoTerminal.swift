import CNcurses
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal pair for running a real curses screen without a real terminal.
///
/// The slave side is the screen's terminal (raw mode, a fixed size in cells); everything written
/// to it is read from the master side on a background thread. `takeOutput()` returns exactly the
/// bytes written since the previous call: it writes a marker behind them (bytes 0xFF 0xFE 0xFF,
/// which never occur in UTF-8 or escape sequences) and waits for the marker to come through.
final class PseudoTerminal {
    /// Why the pair couldn't be set up or read.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static let marker: [UInt8] = [0xFF, 0xFE, 0xFF]

    private var master: Int32
    private let slavePath: String
    private let markerDescriptor: Int32
    private let output = OutputBuffer()
    private var reader: Thread?

    /// Opens a pair whose terminal is `width × height` cells and starts reading the master side.
    init(width: Int, height: Int) throws(Failure) {
        var name = [CChar](repeating: 0, count: 256)
        let master = opsdash_open_pseudo_terminal(&name, name.count)
        guard master >= 0 else {
            throw Failure(description: "cannot open a pseudo-terminal: errno \(errno)")
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            _ = close(master)
            throw Failure(description: "cannot open \(path): errno \(errno)")
        }
        // Raw: no output processing, so the master reads exactly what the screen wrote.
        var mode = termios()
        _ = tcgetattr(slave, &mode)
        cfmakeraw(&mode)
        _ = tcsetattr(slave, TCSANOW, &mode)
        _ = opsdash_set_window_size(slave, UInt16(height), UInt16(width))
        self.master = master
        self.slavePath = path
        self.markerDescriptor = slave
        let output = output
        let thread = Thread { readAll(from: master, into: output) }
        thread.start()
        reader = thread
    }

    deinit {
        hangUp()
        _ = close(markerDescriptor)
    }

    /// Closes the master side, as a terminal emulator or an ssh connection that goes away does:
    /// the terminal's reads fail from then on. No signal is sent (the terminal controls no
    /// session). Idempotent.
    func hangUp() {
        guard master >= 0 else { return }
        output.stop()
        output.waitUntilFinished()
        _ = close(master)
        master = -1
    }

    /// A new stream on the slave side for a screen to own (it closes it).
    func openTerminal() throws(Failure) -> UnsafeMutablePointer<FILE> {
        let descriptor = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0, let file = fdopen(descriptor, "r+") else {
            throw Failure(description: "cannot open \(slavePath): errno \(errno)")
        }
        return file
    }

    /// The bytes written to the terminal since the last call (or since the pair opened).
    /// Throws if they don't arrive within `timeout` seconds (a failure guard, not a pacing wait).
    func takeOutput(timeout: TimeInterval = 20) throws(Failure) -> [UInt8] {
        let written = Self.marker.withUnsafeBytes { write(markerDescriptor, $0.baseAddress, $0.count) }
        guard written == Self.marker.count else {
            throw Failure(description: "cannot write the marker: errno \(errno)")
        }
        guard let bytes = output.take(through: Self.marker, deadline: Date(timeIntervalSinceNow: timeout))
        else { throw Failure(description: "the terminal output did not arrive within \(timeout) s") }
        return bytes
    }
}

/// Reads `master` until it is closed or `output` is stopped, appending everything to `output`.
private func readAll(from master: Int32, into output: OutputBuffer) {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    while !output.isStopped {
        // The timeout only bounds how long a stop request waits; data wakes the poll at once.
        guard poll(&descriptor, 1, 100) > 0 else { continue }
        let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 {
            output.append(chunk[0..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            break
        }
    }
    output.finish()
}

/// Bytes read from the master side, shared between the reader thread and the test.
///
/// `@unchecked Sendable`: every stored property is read and written only with `condition` held.
private final class OutputBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var stopRequested = false
    private var finished = false

    var isStopped: Bool {
        condition.withLock { stopRequested }
    }

    func append(_ more: ArraySlice<UInt8>) {
        condition.withLock {
            bytes.append(contentsOf: more)
            condition.broadcast()
        }
    }

    func stop() {
        condition.withLock { stopRequested = true }
    }

    func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    func waitUntilFinished() {
        condition.withLock {
            while !finished { condition.wait() }
        }
    }

    /// Waits for `marker`, then removes and returns everything before it, dropping the marker;
    /// nil if it hasn't arrived by `deadline` or the reader ended first.
    func take(through marker: [UInt8], deadline: Date) -> [UInt8]? {
        condition.withLock {
            while true {
                if let range = firstRange(of: marker) {
                    let before = Array(bytes[..<range.lowerBound])
                    bytes.removeSubrange(..<range.upperBound)
                    return before
                }
                if finished || !condition.wait(until: deadline) { return nil }
            }
        }
    }

    private func firstRange(of marker: [UInt8]) -> Range<Int>? {
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count)
        where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            return start..<(start + marker.count)
        }
        return nil
    }
}
