import OpsMonitor
import OpsWire

/// Keyframe round trip: what `KeyframeEncoder` writes for `snapshot`, read back through
/// `JSONLinesDecoder` into a fresh `EventSnapshotBuilder` and written again, gives the same
/// bytes (once the first encoding has rounded what it rounds).
public func checkKeyframeRoundTrip(_ snapshot: QueueSnapshot, seq: UInt64, limits: MonitorStore.Limits) {
    let first = KeyframeEncoder.bytes(snapshot, seq: seq)
    let once = rebuild(first, limits: limits)
    let second = KeyframeEncoder.bytes(once, seq: seq)
    let twice = rebuild(second, limits: limits)
    let third = KeyframeEncoder.bytes(twice, seq: seq)
    check(
        second == third,
        "keyframe round trip differs:\n\(String(decoding: second, as: UTF8.self))\n\(String(decoding: third, as: UTF8.self))"
    )
}

private func rebuild(_ keyframe: [UInt8], limits: MonitorStore.Limits) -> QueueSnapshot {
    let decoder = JSONLinesDecoder(maximumLineLength: .max - 2)
    var builder = EventSnapshotBuilder(limits: limits)
    for line in keyframe.split(separator: UInt8(ascii: "\n")) {
        do {
            try builder.apply(try decoder.decode(bytes: line).line)
        } catch {
            check(false, "keyframe line not read back (\(error)): \(String(decoding: line, as: UTF8.self))")
        }
    }
    return builder.snapshot()
}
