import Foundation

/// Reads a recording's lines in order and checks each (`RecordingScan`), from the header on:
/// opening runs it up to the first frame's lines, or to the end, and the rest runs on a
/// background thread (`RecordingReader.checkRest()`), so a large recording shows its first
/// frame at once and is still checked whole.
struct RecordingCheck {
    private(set) var scan: RecordingScan
    private var lines: LineReader
    private let handle: FileHandle
    private let decoder = JSONLinesDecoder(maximumLineLength: RecordingReader.maximumLineLength)
    /// The file's size, for progress.
    let size: UInt64
    private var nextProgress: UInt64 = 0
    /// Whether the last line has been read (or a torn last line reached).
    private(set) var isAtEnd = false

    init(path: String) throws(RecordingError) {
        scan = RecordingScan(path: path)
        handle = try RecordingFile.open(path)
        var status = stat()
        size = fstat(handle.fileDescriptor, &status) == 0 ? UInt64(max(0, status.st_size)) : 0
        do {
            lines = try LineReader(handle: handle, offset: 0, maximumLength: RecordingReader.maximumLineLength)
        } catch {
            try? handle.close()
            throw RecordingError(path: path, line: 0, problem: "read failed: \(error)")
        }
    }

    /// Reads and checks lines until `stop` is true after one (or to the end), telling `progress`
    /// the bytes read every `RecordingReader.progressInterval`; throws naming the line and the
    /// problem. At the end, the scan is finished and the file closed.
    mutating func read(
        progress: ((_ read: UInt64, _ size: UInt64) -> Void)?, until stop: (RecordingScan) -> Bool = { _ in false }
    ) throws(RecordingError) {
        do {
            while !isAtEnd {
                guard let line = try lines.next() else {
                    isAtEnd = true
                    break
                }
                if let progress, line.offset >= nextProgress {
                    progress(line.offset, size)
                    nextProgress = line.offset + RecordingReader.progressInterval
                }
                guard try scan.read(line, with: decoder) else {
                    isAtEnd = true
                    break
                }
                if stop(scan) { return }
            }
        } catch let error as RecordingError {
            try? handle.close()
            throw error
        } catch let error as LineReader.LineTooLong {
            try? handle.close()
            throw scan.fail(scan.number + 1, error.message)
        } catch {
            try? handle.close()
            throw scan.fail(scan.number, "read failed: \(error)")
        }
        try? handle.close()
        _ = try scan.finish()
    }
}
