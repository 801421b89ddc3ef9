/// A scenario file as written (top level), before validation and resolution.
public struct ScenarioFile: Sendable, Equatable, Decodable {
    /// Short name.
    public var name: String
    /// One-line description.
    public var description: String
    /// Default maximum concurrent operations (≥ 1).
    public var concurrency: Int
    /// Seed for every random draw.
    public var seed: UInt64
    /// The entries, in file order.
    public var operations: [OperationEntry]

    /// Decodes from a scenario file, refusing unknown fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        try FieldKey.requireOnly(["$schema", "name", "description", "concurrency", "seed", "operations"], in: c)
        name = try c.decode(String.self, forKey: FieldKey("name"))
        description = try c.decode(String.self, forKey: FieldKey("description"))
        concurrency = try c.requiredInteger("concurrency", bounds: 1...ScenarioLimits.maxConcurrency)
        let seedKey = FieldKey("seed")
        if c.contains(seedKey), (try? c.decode(UInt64.self, forKey: seedKey)) == nil {
            throw FieldProblem([seedKey], "must be a non-negative integer")
        }
        seed = try c.decode(UInt64.self, forKey: seedKey)
        operations = try c.decode([OperationEntry].self, forKey: FieldKey("operations"))
    }
}
