import Foundation

/// Finds the built `opsdash` executable: `$OPSDASH_BINARY`, else next to the test bundle
/// (walking up a few directories from the bundle and from argv[0]), else `.build/debug/opsdash`.
func opsdashBinaryPath() -> String? {
    let files = FileManager.default
    if let override = ProcessInfo.processInfo.environment["OPSDASH_BINARY"],
        files.isExecutableFile(atPath: override)
    {
        return override
    }
    let starts =
        [Bundle.main.bundlePath, CommandLine.arguments.first ?? ""]
        + Bundle.allBundles.map(\.bundlePath)
    for start in starts where !start.isEmpty {
        var directory = URL(fileURLWithPath: start).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("opsdash").path
            if files.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
    }
    let fallback = URL(fileURLWithPath: files.currentDirectoryPath)
        .appendingPathComponent(".build/debug/opsdash").path
    return files.isExecutableFile(atPath: fallback) ? fallback : nil
}

/// Whether a `tmux` is on PATH.
func tmuxPath() -> String? {
    executableOnPath("tmux")
}

/// True when the tmux tests must run: tmux is present, or we're in CI (where a missing tmux
/// must fail, not skip).
let tmuxTestsEnabled = tmuxPath() != nil || ProcessInfo.processInfo.environment["CI"] == "true"

/// The built demo executable `name` (`EmbeddingExample`, `NetworkExample`), next to `opsdash`.
func demoBinaryPath(_ name: String) -> String? {
    opsdashBinaryPath().map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent(name).path }
}
