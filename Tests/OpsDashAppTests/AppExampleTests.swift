import Foundation
import OpsKitTesting
import Testing

/// `Demos/AppExample` (docs/EMBEDDING.md) builds, runs to the end and reports
/// what it did in one summary line, including the download it cancels itself (and says why) and
/// the step that depended on it.
struct AppExampleTests {
    /// The built `AppExample` next to the test bundle (SwiftPM puts products in one directory).
    static func binaryPath() -> String? {
        let starts = [Bundle.main.bundlePath, CommandLine.arguments.first ?? ""] + Bundle.allBundles.map(\.bundlePath)
        for start in starts where !start.isEmpty {
            var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("AppExample").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    @Test func runsToTheEndAndReportsEveryOperation() throws {
        let path = try #require(Self.binaryPath(), "AppExample is not built next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--rounds", "1"]  // one round of work, then it exits
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let finished = waitFor(ended, seconds: 60)
        if !finished { process.terminate() }
        #expect(finished, "AppExample did not end within 60 s")
        #expect(process.terminationStatus == 0, "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("queue drained"), "\(text)")
        // No operator acted: the app says it cancelled photo-1-6.jpg itself, and why.
        #expect(lines.contains("photo-1-6.jpg: cancelled by the app (demo failure plan)"), "\(text)")
        #expect(!text.contains("by operator"), "\(text)")
        #expect(lines.filter { $0.hasPrefix("#") }.isEmpty, "one line per operation: \(text)")
        #expect(lines.last == "ran 12 operations: 10 succeeded, 0 failed, 2 cancelled", "\(text)")
    }
}
