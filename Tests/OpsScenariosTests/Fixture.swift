import Foundation
import OpsScenarios

/// Writes scenario text to a temp file that lives while a test uses it, and loads it.
enum Fixture {
    /// Runs `body` with the path of a fresh temp file holding `text`; the file and its
    /// directory are removed afterwards.
    @discardableResult
    static func withFile<Result>(
        _ text: String, name: String = "bad.json", _ body: (String) throws -> Result
    ) throws -> Result {
        try withFile(data: Data(text.utf8), name: name, body)
    }

    /// Runs `body` with the path of a fresh temp file holding `data`; the file and its
    /// directory are removed afterwards.
    @discardableResult
    static func withFile<Result>(
        data: Data, name: String = "bad.json", _ body: (String) throws -> Result
    ) throws -> Result {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("opsscenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return try body(path)
    }

    /// The error a file with `text` produces, or nil if it loads.
    static func error(_ text: String) throws -> ScenarioError? {
        try withFile(text) { try error(atPath: $0) }
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
