import Foundation
import OpsKit

/// Reads, decodes and validates scenario files into `ResolvedScenario` values.
public enum ScenarioLoader {
    /// Loads the file at `path`; `seedOverride` replaces the file's seed (`--seed`).
    public static func load(path: String, seedOverride: UInt64? = nil) throws(ScenarioError) -> ResolvedScenario {
        let data: Data
        do {
            data = try ScenarioFileReader.read(path: path)
        } catch {
            throw ScenarioError(source: path, problem: error.message)
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
        } catch  where !looksLikePath && error.problem == "file not found" {
            let names = Scenarios.sorted.map(\.name).joined(separator: ", ")
            throw ScenarioError(
                source: nameOrPath, problem: "not a built-in scenario (\(names)) and no such file")
        }
    }

    /// Decodes and validates JSON `data`; `source` names it in errors.
    public static func decode(data: Data, source: String, seedOverride: UInt64? = nil) throws(ScenarioError)
        -> ResolvedScenario
    {
        let file = try parse(data: data, source: source)
        do {
            return try ScenarioResolver.resolve(file, seed: seedOverride ?? file.seed)
        } catch {
            throw ScenarioError(source: source, problem: error.message)
        }
    }

    /// Decodes `data` into the file model without resolving it. The text must be strict JSON
    /// (RFC 8259; a leading UTF-8 byte-order mark is ignored) with an object at the top level.
    public static func parse(data: Data, source: String) throws(ScenarioError) -> ScenarioFile {
        switch JSONSyntaxLocator.check(data) {
        case .failure(let failure):
            throw ScenarioError(source: source, problem: failure.message)
        case .success(let kind) where kind != .object:
            throw ScenarioError(source: source, problem: "the top level must be an object (got \(kind.noun))")
        case .success:
            break
        }
        do {
            return try JSONDecoder().decode(ScenarioFile.self, from: data)
        } catch let problem as FieldProblem {
            throw ScenarioError(source: source, problem: "\(FieldProblem.render(problem.path)) \(problem.message)")
        } catch let error as DecodingError {
            throw ScenarioError(source: source, problem: DecodingErrorText.describe(error))
        } catch {
            throw ScenarioError(source: source, problem: "cannot decode: \(error)")
        }
    }
}
