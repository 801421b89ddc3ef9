import Foundation
import Testing

/// docs/MACOS.md: the monitor watches a queue the same way on every platform (OpsKit's
/// lifecycle listener, plain starts looked for at each reading), so a Darwin port of OpsMonitor
/// is a build matter. A platform branch in its sources would be a second path nothing here tests.
@Suite struct OnePathOnEveryPlatformTests {
    @Test func opsMonitorHasNoPlatformBranches() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/OpsMonitor")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "found the module's sources")
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("canImport("), "\(file) branches by platform")
        }
    }
}
