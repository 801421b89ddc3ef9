import Foundation
import OpsKit

/// Reads, decodes and validates scenario files into `ResolvedScenario` values.
public enum ScenarioLoader {
    /// Loads the file at `path`; `seedOverride` replaces the file's seed (`--seed`).
    public static func load(path: String, seedOverride: UInt64? = nil) throws(ScenarioError) -> ResolvedScenario {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let problem = !exists ? "file not found" : isDirectory.boolValue ? "is a directory, not a file" : "cannot read file"
            throw ScenarioError(source: path, problem: problem)
        }
        return try decode(data: data, source: path, seedOverride: seedOverride)
    }

    /// What `--scenario` accepts: a path (contains `/` or ends in `.json`), else a built-in name,
    /// else a file in the current directory.
    public static func load(nameOrPath: String, seedOverride: UInt64? = nil) throws(ScenarioError) -> ResolvedScenario {
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if !looksLikePath, let builtIn = Scenarios.builtIn[nameOrPath] {
            return try builtIn.resolve(seedOverride: seedOverride)
        }
        do {
            return try load(path: nameOrPath, seedOverride: seedOverride)
        } catch where !looksLikePath && error.problem == "file not found" {
            let names = Scenarios.sorted.map(\.name).joined(separator: ", ")
            throw ScenarioError(
                source: nameOrPath, problem: "not a built-in scenario (\(names)) and no such file")
        }
    }

    /// Decodes and validates JSON `data`; `source` names it in errors.
    public static func decode(data: Data, source: String, seedOverride: UInt64? = nil) throws(ScenarioError) -> ResolvedScenario {
        let file = try parse(data: data, source: source)
        do {
            return try ScenarioResolver.resolve(file, seed: seedOverride ?? file.seed)
        } catch {
            throw ScenarioError(source: source, problem: error.message)
        }
    }

    /// Decodes `data` into the file model without resolving it.
    public static func parse(data: Data, source: String) throws(ScenarioError) -> ScenarioFile {
        do {
            return try JSONDecoder().decode(ScenarioFile.self, from: data)
        } catch let problem as FieldProblem {
            throw ScenarioError(source: source, problem: "\(FieldProblem.render(problem.path)) \(problem.message)")
        } catch let error as DecodingError {
            throw ScenarioError(source: source, problem: DecodingErrorText.describe(error, data: data))
        } catch {
            throw ScenarioError(source: source, problem: "cannot decode: \(error)")
        }
    }
}
