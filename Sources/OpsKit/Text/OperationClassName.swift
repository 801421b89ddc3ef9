import Foundation

/// The readable name of an operation's class (`BlockOperation`, `ResizeOperation`): what the
/// monitor shows an unnamed operation under and what a trace names its span, without module
/// prefix or generic arguments (so a name stays one of a few, whatever the operation works on).
package enum OperationClassName {
    /// `op`'s unqualified class name.
    package static func of(_ op: Operation) -> String {
        unqualified(String(describing: type(of: op)))
    }

    /// `described` (a type's description) without generic arguments and without anything up
    /// to the last `.` (a module or enclosing type): `Box<Swift.Int>` → `Box`,
    /// `App.Outer.Resize` → `Resize`. Falls back to "Operation" when nothing is left.
    package static func unqualified(_ described: String) -> String {
        let withoutGenerics = described.prefix { $0 != "<" }
        let last = withoutGenerics.split(separator: ".").last.map(String.init) ?? ""
        let trimmed = last.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "Operation" : trimmed
    }
}
