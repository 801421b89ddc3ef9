import OpsMonitor

/// One JSON value, as `JSONLineParser` reads it; integers without a fraction or exponent stay exact.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, if this is one.
    public var intValue: Int64? {
        if case .int(let value) = self { value } else { nil }
    }

    /// The number (integer or not), if this is one.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The object, if this is one.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The array, if this is one.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }
}
