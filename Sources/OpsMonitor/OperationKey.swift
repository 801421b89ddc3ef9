import Foundation

/// An operation's identity as a dictionary key of the monitor's bookkeeping (tracked, finished,
/// waiting links), hashed in a few instructions: an object address is no input an attacker
/// picks, and the default `ObjectIdentifier` hash (SipHash through `Hasher`) cost ~110
/// instructions per lookup, several lookups for every operation the queue runs.
struct OperationKey: Hashable {
    private let address: UInt

    init(_ operation: Operation) {
        address = UInt(bitPattern: ObjectIdentifier(operation))
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(address)
    }

    /// The address mixed (a multiply and a shift spread its aligned low bits over the bucket
    /// bits), and the dictionary's per-instance seed folded in.
    func _rawHashValue(seed: Int) -> Int {
        let mixed = (address ^ UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
        return Int(bitPattern: mixed ^ (mixed &>> 29))
    }
}
