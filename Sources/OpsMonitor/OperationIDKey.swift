/// An operation id as the key of the store's id → position map, hashed in a few instructions:
/// ids are the store's own sequential numbers, no input an attacker picks, and `Int`'s default
/// hash (SipHash through `Hasher`) cost ~140 instructions per lookup, one at every add and
/// every state change of every operation.
struct OperationIDKey: Hashable {
    let id: Int

    init(_ id: Int) {
        self.id = id
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// The id mixed (a multiply and a shift spread consecutive ids over the bucket bits), and
    /// the dictionary's per-instance seed folded in.
    func _rawHashValue(seed: Int) -> Int {
        let mixed = (UInt(bitPattern: id) ^ UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
        return Int(bitPattern: mixed ^ (mixed &>> 29))
    }
}
