/// A validated scenario ready to run: every value concrete, operations in file order.
public struct ResolvedScenario: Sendable, Equatable {
    /// Short name.
    public var name: String
    /// One-line description.
    public var description: String
    /// Default maximum concurrent operations (≥ 1).
    public var concurrency: Int
    /// The seed the draws used (the file's, or the caller's override).
    public var seed: UInt64
    /// Operations in file order, groups expanded in place.
    public var operations: [ResolvedOperation]

    /// Creates a value with every field given.
    public init(
        name: String, description: String, concurrency: Int, seed: UInt64,
        operations: [ResolvedOperation]
    ) {
        self.name = name
        self.description = description
        self.concurrency = concurrency
        self.seed = seed
        self.operations = operations
    }
}
