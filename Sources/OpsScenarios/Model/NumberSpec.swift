/// A number in a scenario file: a fixed value, or `{"min": a, "max": b}` drawn uniformly.
public enum NumberSpec: Sendable, Equatable, Decodable {
    /// A fixed value.
    case value(Double)
    /// A uniform draw in `min...max`.
    case range(min: Double, max: Double)

    /// The largest value this spec can produce.
    public var upperBound: Double {
        switch self {
        case .value(let v): v
        case .range(_, let high): high
        }
    }

    /// The smallest value this spec can produce.
    public var lowerBound: Double {
        switch self {
        case .value(let v): v
        case .range(let low, _): low
        }
    }

    /// Decodes from a scenario file, refusing unknown fields.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let v = try? single.decode(Double.self) {
            self = .value(v)
            return
        }
        guard let keyed = try? decoder.container(keyedBy: FieldKey.self) else {
            throw FieldProblem(decoder.codingPath, "must be a number or {\"min\": a, \"max\": b}")
        }
        try FieldKey.requireOnly(["min", "max"], in: keyed)
        let low = try keyed.decode(Double.self, forKey: FieldKey("min"))
        let high = try keyed.decode(Double.self, forKey: FieldKey("max"))
        self = .range(min: low, max: high)
    }
}
