/// Comparing two clock times in place: the standard library's `<` on `Duration` is a call into
/// it (~33 instructions), made several times for every change the monitor applies.
extension Duration {
    /// Whether this is shorter than `other`: the two words a `Duration` is kept in (a signed
    /// high word, an unsigned low one: attoseconds as a 128-bit integer), compared in order.
    @inline(__always) func isShorter(than other: Duration) -> Bool {
        (_high, _low) < (other._high, other._low)
    }
}
