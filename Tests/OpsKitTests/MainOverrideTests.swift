import Foundation
import OpsKitTesting
import Testing

/// `AsyncOperation.main()` is unavailable: a subclass written the classic way must fail to
/// compile with a message naming `execute()`. Checked by type-checking snippets against the
/// OpsKit module this test run was built with.
@Suite(.ownThread) struct MainOverrideTests {
    /// The directory holding `OpsKit.swiftmodule` for this build (next to the test bundle).
    static var modulesDirectory: URL? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [executable.deletingLastPathComponent().appendingPathComponent("Modules")]
        // Inside a bundle (macOS): …/debug/X.xctest/Contents/MacOS/X
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent("Modules"))
        }
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("OpsKit.swiftmodule").path)
        }
    }

    /// The module maps SwiftPM made for the build's C targets (OpsKit imports `CReaderSlots`),
    /// which a compiler outside SwiftPM needs to load OpsKit.
    static func cModuleMaps(besides modules: URL) -> [String] {
        let build = modules.deletingLastPathComponent()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        return entries.filter { $0.hasSuffix(".build") }.map {
            build.appendingPathComponent($0).appendingPathComponent("module.modulemap").path
        }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Type-checks `source` against OpsKit: exit status and diagnostics.
    static func typecheck(_ source: String, modules: URL) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("opsdash-main-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path]
            + cModuleMaps(besides: modules).flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func overridingMainIsACompileErrorThatPointsAtExecute() throws {
        guard let modules = Self.modulesDirectory else {
            Issue.record("OpsKit.swiftmodule not found next to \(CommandLine.arguments[0])")
            return
        }
        let good = try Self.typecheck(
            """
            import OpsKit
            final class Resize: AsyncOperation, @unchecked Sendable {
                override func execute() { finish() }
            }
            """, modules: modules)
        #expect(good.status == 0, "the control snippet must compile: \(good.output)")
        let classic = try Self.typecheck(
            """
            import OpsKit
            final class Resize: AsyncOperation, @unchecked Sendable {
                override func main() { print("resizing") }
            }
            """, modules: modules)
        #expect(classic.status != 0)
        #expect(classic.output.contains("cannot override 'main' which has been marked unavailable"))
        #expect(classic.output.contains("override execute()"))
    }
}
