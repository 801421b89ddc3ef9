import Foundation

/// One-line text for a `DecodingError`, with the field path and, for bad JSON, line and column.
enum DecodingErrorText {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            let field = FieldProblem.render(context.codingPath)
            if field.isEmpty { return "the top level must be \(noun(for: type))" }
            let found = context.debugDescription.contains("null") ? " (got null)" : ""
            return "\(field) must be \(noun(for: type))\(found)"
        case .valueNotFound(let type, let context):
            return "\(FieldProblem.render(context.codingPath)) must be \(noun(for: type)) (got null)"
        case .keyNotFound(let key, let context):
            return "\(FieldProblem.render(context.codingPath + [key])) is required"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {  // the text passed JSONSyntaxLocator's strict check
                return "a number does not fit its field (too large, or negative where not allowed)"
            }
            let field = FieldProblem.render(context.codingPath)
            return "\(field) is out of range or malformed"
        @unknown default:
            return "cannot decode: \(error)"
        }
    }

    private static func noun(for type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is UInt64.Type: "a non-negative integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type: "an array of strings"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
