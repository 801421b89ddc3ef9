import Foundation
import OpsKitTesting
import Testing

/// `Demos/AppExample` (README "Embedding OpsKit in your app") builds, runs to the end and reports
/// every operation, including the download its operator cancels and the step that depended on it.
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
        let outcomes = lines.filter { $0.hasPrefix("#") }
        #expect(outcomes.count == 12, "\(text)")
        #expect(outcomes.filter { $0.hasSuffix(": succeeded") }.count == 10, "\(text)")
        #expect(outcomes.contains("#11 photo-1-6.jpg: cancelled (cancelled by operator)"), "\(text)")
        #expect(outcomes.contains("#12 thumb-1-6: cancelled (dependency photo-1-6.jpg did not succeed)"), "\(text)")
    }
}
