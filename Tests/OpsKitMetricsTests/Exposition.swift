import Foundation

/// A Prometheus text exposition read back: series (name plus sorted labels) to value.
struct Exposition {
    var series: [String: Double] = [:]
    var types: [String: String] = [:]

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                if parts.count == 4 { types[String(parts[2])] = String(parts[3]) }
                continue
            }
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " ") else { continue }
            let key = line[..<space]
            series[Self.normalized(key)] = Double(line[line.index(after: space)...])
        }
    }

    /// `name{b="2",a="1"}` → `name{a="1",b="2"}`.
    static func normalized<S: StringProtocol>(_ key: S) -> String {
        guard let brace = key.firstIndex(of: "{") else { return String(key) }
        let inner = String(key[key.index(after: brace)..<key.index(before: key.endIndex)])
        let labels = inner.split(separator: ",").map(String.init).sorted()
        return "\(key[..<brace]){\(labels.joined(separator: ","))}"
    }

    subscript(_ key: String) -> Double? { series[Self.normalized(key)] }

    /// Every label name used.
    var labelNames: Set<String> {
        var names = Set<String>()
        for key in series.keys {
            guard let brace = key.firstIndex(of: "{") else { continue }
            for pair in key[key.index(after: brace)...].dropLast().split(separator: ",") {
                names.insert(String(pair.prefix { $0 != "=" }))
            }
        }
        return names
    }
}

/// The path of `tool` on PATH, if any.
func toolPath(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Tests that need Prometheus's tools run when they are installed, and always in CI (where a
/// missing promtool must fail, not skip).
let prometheusToolsEnabled = toolPath("promtool") != nil || ProcessInfo.processInfo.environment["CI"] == "true"

/// Runs `promtool` with `arguments` and `input` on stdin; returns its status and output.
func promtool(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: toolPath("promtool") ?? "/usr/bin/promtool")
    process.arguments = arguments
    let stdin = Pipe()
    let output = Pipe()
    process.standardInput = stdin
    process.standardOutput = output
    process.standardError = output
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The repository root (for docs checked by tests).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
