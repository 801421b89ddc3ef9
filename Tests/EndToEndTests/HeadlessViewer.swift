import Foundation

/// `opsdash attach --headless` running in its own process: started, waited on until it is
/// attached (its first line arrived), then read to its end.
final class HeadlessViewer {
    let process: Process
    private let out: Pipe
    private let errors: ReadAll
    private var received = Data()

    /// Starts the viewer with `arguments` after `attach --headless`, with `environment` added,
    /// and waits until its first line arrives (or its output ends). `started` sees the process
    /// before the wait (a watchdog may end it).
    init(_ arguments: [String] = [], environment: [String: String], started: (Process) -> Void = { _ in }) throws {
        let (process, out, err) = try startProcess(
            try OpsdashBuild.debug.binary(), ["attach", "--headless"] + arguments, environment: environment)
        started(process)
        self.process = process
        self.out = out
        errors = ReadAll(err.fileHandleForReading)
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
    }

    /// Whether a first line arrived: the viewer is attached.
    var isAttached: Bool { received.contains(UInt8(ascii: "\n")) }

    /// Reads the rest of the output and waits for the viewer to end.
    func finish() -> ProcessResult {
        received.append(out.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: received, as: UTF8.self),
            stderr: String(decoding: errors.wait(), as: UTF8.self))
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
