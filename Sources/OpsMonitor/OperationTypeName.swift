import Foundation
import OpsKit

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
            name = OperationClassName.of(op)
            cache[key] = name
        }
        return "\(name) #\(id)"
    }
}
