import Foundation
import OpsScenarios

/// Writes scenario text to a fresh temp file and loads it.
enum Fixture {
    static func write(_ text: String, name: String = "bad.json") throws -> String {
        try write(data: Data(text.utf8), name: name)
    }

    /// Writes `data` to a fresh temp file; returns its path.
    static func write(data: Data, name: String = "bad.json") throws -> String {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("opsscenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The error a file with `text` produces, or nil if it loads.
    static func error(_ text: String) throws -> ScenarioError? {
        try error(atPath: write(text))
    }

    /// The error loading the file at `path` produces, or nil if it loads.
    static func error(atPath path: String) throws -> ScenarioError? {
        do {
            _ = try ScenarioLoader.load(path: path)
            return nil
        } catch {
            return error
        }
    }

    /// A valid scenario whose operations are `ops` (JSON array items).
    static func scenario(_ ops: String, concurrency: Int = 2, seed: UInt64 = 7) -> String {
        """
        {"name": "t", "description": "test", "concurrency": \(concurrency), "seed": \(seed),
         "operations": [\(ops)]}
        """
    }

    static let download = #"{"id": "a", "kind": "download", "size": 1000, "bandwidth": 100}"#

    static func decode(_ text: String, seed: UInt64? = nil) throws -> ResolvedScenario {
        try ScenarioLoader.decode(data: Data(text.utf8), source: "test", seedOverride: seed)
    }
}
