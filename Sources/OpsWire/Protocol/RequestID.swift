/// The `id` a viewer's command carries and its reply echoes: a string or an integer (any other
/// JSON value is no usable id).
public enum RequestID: Sendable, Equatable, Hashable {
    case string(String)
    case int(Int64)

    /// The id a command's `id` field gives, nil for a missing one or another type.
    package init?(_ value: JSONValue?) {
        switch value {
        case .string(let text)?: self = .string(text)
        case .int(let number)?: self = .int(number)
        default: return nil
        }
    }

    /// The id as text: the string, or the integer's digits.
    package var text: String {
        switch self {
        case .string(let text): text
        case .int(let number): "\(number)"
        }
    }

    /// Appends `,"id":ID`.
    func appendField(to bytes: inout [UInt8]) {
        JSONBytes.append(#","id":"#, to: &bytes)
        switch self {
        case .string(let text): JSONBytes.appendString(text, to: &bytes)
        case .int(let number): JSONBytes.append(number, to: &bytes)
        }
    }
}
