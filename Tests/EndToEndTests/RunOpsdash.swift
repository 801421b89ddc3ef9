import Foundation

/// What a finished `opsdash` process left behind.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `opsdash` with `arguments` to completion (stdin from /dev/null) and collects its output.
/// `environment` is added to this process's environment.
func runOpsdash(
    _ arguments: [String], signalAfterFirstLine: Int32? = nil, build: OpsdashBuild = .debug,
    environment extra: [String: String] = [:]
) throws -> ProcessResult {
    let (process, out, err) = try startProcess(try build.binary(), arguments, environment: extra)
    var outData = Data()
    if let signalNumber = signalAfterFirstLine {
        // Read until the first full line arrives, then interrupt.
        while !outData.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            outData.append(chunk)
        }
        kill(process.processIdentifier, signalNumber)
    }
    let errData = ReadAll(err.fileHandleForReading)
    outData.append(out.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData.wait(), as: UTF8.self))
}

/// Starts `executable` with `arguments`, stdin from /dev/null, stdout and stderr on pipes, and
/// the Swift runtime's backtracer off.
func startProcess(
    _ executable: String, _ arguments: [String], environment extra: [String: String] = [:]
) throws -> (Process, out: Pipe, err: Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    return (process, out, err)
}

/// Reads a file handle to its end on a background thread (so a full stderr pipe can't block).
final class ReadAll: @unchecked Sendable {
    // Locking: `data` is written once by the reader thread before `done` is signalled.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
