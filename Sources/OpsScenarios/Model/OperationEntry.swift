/// One entry of `operations` as written in the file (before defaults, draws and expansion).
public struct OperationEntry: Sendable, Equatable, Decodable {
    /// Unique id; with `repeat`, must contain `{i}`.
    public var id: String
    /// "download", "upload" or "process".
    public var kind: String
    /// Display name; defaults to the id. `{i}` is substituted.
    public var name: String?
    /// Bytes to transfer (transfers only).
    public var size: NumberSpec?
    /// Bytes per second (transfers only).
    public var bandwidth: NumberSpec?
    /// Seconds before the first byte of each attempt.
    public var latency: NumberSpec?
    /// 0…1 variation of chunk durations.
    public var jitter: NumberSpec?
    /// A planned failure.
    public var failure: FailureEntry?
    /// Further attempts after a failure.
    public var retries: Int?
    /// Seconds before the first retry (doubling after that).
    public var backoff: NumberSpec?
    /// Seconds of work (process only).
    public var duration: NumberSpec?
    /// Ids this entry depends on; `{i}` is substituted.
    public var after: [String]?
    /// Expands the entry into this many operations.
    public var `repeat`: Int?
    /// 0…1: probability that each expanded operation gets the failure plan.
    public var failureChance: Double?
    /// "run" (Foundation's way: run after a failed or cancelled dependency) or "cancel".
    public var onDependencyFailure: String?

    static let fields: Set<String> = [
        "id", "kind", "name", "size", "bandwidth", "latency", "jitter", "failure", "retries",
        "backoff", "duration", "after", "repeat", "failureChance", "onDependencyFailure",
    ]

    /// Decodes from a scenario file, refusing unknown fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        try FieldKey.requireOnly(Self.fields, in: c)
        func key(_ name: String) -> FieldKey { FieldKey(name) }
        id = try c.decode(String.self, forKey: key("id"))
        kind = try c.decode(String.self, forKey: key("kind"))
        name = try c.decodeIfPresent(String.self, forKey: key("name"))
        size = try c.decodeIfPresent(NumberSpec.self, forKey: key("size"))
        bandwidth = try c.decodeIfPresent(NumberSpec.self, forKey: key("bandwidth"))
        latency = try c.decodeIfPresent(NumberSpec.self, forKey: key("latency"))
        jitter = try c.decodeIfPresent(NumberSpec.self, forKey: key("jitter"))
        failure = try c.decodeIfPresent(FailureEntry.self, forKey: key("failure"))
        retries = try c.integer("retries", bounds: 0...ScenarioLimits.maxRetries)
        backoff = try c.decodeIfPresent(NumberSpec.self, forKey: key("backoff"))
        duration = try c.decodeIfPresent(NumberSpec.self, forKey: key("duration"))
        // `null` means absent, as for every optional field.
        if c.contains(key("after")), (try? c.decodeNil(forKey: key("after"))) != true,
            (try? c.nestedUnkeyedContainer(forKey: key("after"))) == nil
        {
            throw FieldProblem(c.codingPath + [key("after")], "must be an array of strings")
        }
        after = try c.decodeIfPresent([String].self, forKey: key("after"))
        `repeat` = try c.integer("repeat", bounds: 1...ScenarioLimits.maxOperations)
        failureChance = try c.decodeIfPresent(Double.self, forKey: key("failureChance"))
        onDependencyFailure = try c.decodeIfPresent(String.self, forKey: key("onDependencyFailure"))
    }
}
