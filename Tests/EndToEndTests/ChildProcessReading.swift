import Foundation

/// Reads lines from a pipe as they come (each read blocks until output arrives or the writer ends).
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The first line (without its newline) for which `matches` holds; nil when the output ends first.
    func firstLine(_ matches: (String) -> Bool) -> String? {
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                if matches(line) { return line }
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Everything left, to the end of the output.
    func rest() -> Data { buffer + handle.readDataToEndOfFile() }
}

/// Kills `process` if it still runs after `seconds` (a failing test never hangs on its pipes).
final class ProcessWatchdog: @unchecked Sendable {
    // Locking: the timer is set in init and only cancelled after (DispatchSource is thread-safe).
    private let timer: DispatchSourceTimer

    init(_ process: Process, seconds: Int) {
        let pid = process.processIdentifier
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .seconds(seconds))
        timer.setEventHandler { kill(pid, SIGKILL) }
        timer.resume()
    }

    func disarm() { timer.cancel() }
}
