import Foundation
import OpsKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes text to a file descriptor on its own thread, so the thread that produces it never
/// blocks on a slow or stalled reader (and keeps seeing stop signals).
///
/// The producer asks `pendingBytes` how far behind the writer is and holds its own production
/// back (headless mode pauses the simulated run). A non-blocking descriptor is waited on
/// (`EAGAIN` → `poll`), never dropped. The first write error stops the writer: `failure` says
/// which, and everything queued after it is discarded.
///
/// Into a pipe, each `write(2)` is whole lines of at most `PIPE_BUF` bytes, which the kernel
/// writes all at once or not at all (`WholeLineWrites`): when the process ends while the
/// reader stalls, the reader gets whole lines only, never the start of one.
final class OutputPump: @unchecked Sendable {
    /// Why writing stopped.
    enum Failure: Error, Equatable {
        /// The reader went away (`EPIPE`).
        case brokenPipe
        /// Any other write error, with its `errno`.
        case writeFailed(Int32)
    }

    // Locking: every stored `var` is read and written only with `condition` held.
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    private var pending = 0
    private var closed = false
    private var failed: Failure?
    private let descriptor: Int32
    /// Whether `descriptor` is a pipe (or FIFO): then writes are whole lines (`WholeLineWrites`).
    private let isPipe: Bool

    /// Starts the writer thread for `descriptor`.
    init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
        var info = stat()
        isPipe = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
        let thread = Thread { [self] in
            nameCurrentThread("opsdash.output")
            pump()
        }
        thread.start()
    }

    /// Queues `text` for writing (dropped after a failure).
    func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// Queues `bytes` for writing (dropped after a failure).
    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        condition.withLock {
            guard failed == nil, !closed else { return }
            chunks.append(bytes)
            pending += bytes.count
            condition.broadcast()
        }
    }

    /// Bytes queued and not written yet.
    var pendingBytes: Int { condition.withLock { pending } }

    /// The write error that stopped the writer, if any.
    var failure: Failure? { condition.withLock { failed } }

    /// No more text will come: the writer ends once the queue is written.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Waits until everything queued is written, writing failed, or `deadline` passes; true if
    /// the writer has nothing left to do.
    func waitUntilWritten(before deadline: Date) -> Bool {
        condition.withLock {
            while pending > 0 && failed == nil {
                if !condition.wait(until: deadline) { break }
            }
            return pending == 0 || failed != nil
        }
    }

    private func pump() {
        while true {
            let batch = condition.withLock { () -> [[UInt8]]? in
                while chunks.isEmpty && !closed { condition.wait() }
                if chunks.isEmpty { return nil }
                defer { chunks.removeAll(keepingCapacity: true) }
                return chunks
            }
            guard let batch else { break }
            for chunk in batch {
                let result =
                    isPipe ? WholeLineWrites.write(chunk, to: descriptor) : Self.writeAll(chunk, to: descriptor)
                condition.withLock {
                    if let result {
                        failed = result
                        chunks.removeAll()
                        pending = 0
                    } else {
                        pending -= chunk.count
                    }
                    condition.broadcast()
                }
                if result != nil { return }
            }
        }
    }

    /// Writes all of `bytes`; nil, or why it couldn't.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Failure? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(descriptor, base + offset, buffer.count - offset)
            }
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                var watched = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&watched, 1, 1000)
            case EPIPE: return .brokenPipe
            case let code: return .writeFailed(code)
            }
        }
        return nil
    }
}

/// `write(2)`, spelled so it doesn't collide with methods named `write`.
func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
