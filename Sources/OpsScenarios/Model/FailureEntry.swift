/// The `failure` object of a scenario entry as written in the file.
public struct FailureEntry: Sendable, Equatable, Decodable {
    /// 0…1: how far an attempt gets before failing (transfers; default 0.5).
    public var at: NumberSpec?
    /// The error's description.
    public var message: String
    /// How many attempts fail; nil means all of them.
    public var attempts: Int?

    /// Creates a value with every field given.
    public init(at: NumberSpec? = nil, message: String, attempts: Int? = nil) {
        self.at = at
        self.message = message
        self.attempts = attempts
    }

    /// Decodes from a scenario file, refusing unknown fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        try FieldKey.requireOnly(["at", "message", "attempts"], in: c)
        at = try c.decodeIfPresent(NumberSpec.self, forKey: FieldKey("at"))
        message = try c.decode(String.self, forKey: FieldKey("message"))
        attempts = try c.integer("attempts", bounds: 1...largestExactInteger)
    }
}
