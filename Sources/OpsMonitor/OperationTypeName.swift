import Foundation

/// The readable class name an unnamed operation is shown under (`BlockOperation #17`): the
/// unqualified name of its class, without module prefix or generic arguments.
enum OperationTypeName {
    /// The name shown for an operation without `Operation.name`: its class and monitor id.
    static func defaultName(of op: Operation, id: Int, cache: inout [ObjectIdentifier: String]) -> String {
        let type = type(of: op)
        let key = ObjectIdentifier(type)
        let name: String
        if let known = cache[key] {
            name = known
        } else {
            name = unqualified(String(describing: type))
            cache[key] = name
        }
        return "\(name) #\(id)"
    }

    /// `described` (a type's description) without generic arguments and without anything up
    /// to the last `.` (a module or enclosing type): `Box<Swift.Int>` → `Box`,
    /// `App.Outer.Resize` → `Resize`. Falls back to "Operation" when nothing is left.
    static func unqualified(_ described: String) -> String {
        let withoutGenerics = described.prefix { $0 != "<" }
        let last = withoutGenerics.split(separator: ".").last.map(String.init) ?? ""
        let trimmed = last.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "Operation" : trimmed
    }
}
