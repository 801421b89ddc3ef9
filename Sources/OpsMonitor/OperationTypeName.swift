import Foundation
import OpsKit

/// The readable class name an unnamed operation is shown under (`BlockOperation #17`): the
/// unqualified name of its class, without module prefix or generic arguments.
enum OperationTypeName {
    /// The default names' prefixes (`"BlockOperation #"`) by class, with the last class asked
    /// for kept apart: a queue's operations are mostly of one class, and a dictionary lookup per
    /// operation (hashing) cost more than the rest of the name.
    struct Cache {
        private var last: (type: ObjectIdentifier, prefix: String)?
        private var prefixes: [ObjectIdentifier: String] = [:]

        /// `"<class name> #"` for `op`'s class.
        mutating func prefix(of op: Operation) -> String {
            let key = ObjectIdentifier(type(of: op))
            if let last, last.type == key { return last.prefix }
            let prefix: String
            if let known = prefixes[key] {
                prefix = known
            } else {
                prefix = OperationClassName.of(op) + " #"
                prefixes[key] = prefix
            }
            last = (key, prefix)
            return prefix
        }
    }
}
