import Foundation
import OpsKit
import OpsMonitor
import OpsWire

/// The viewer's side of item 7: decoding the lines a busy publisher sends.
public enum JSONLinesDecodeBench {
    /// `JSONLinesBench.events(count:)` as the lines a publisher sends: each encoded line with its
    /// `seq` before the closing brace, newline included.
    public static func lines(count: Int) -> [[UInt8]] {
        var encoder = JSONLinesEncoder()
        var lines: [[UInt8]] = []
        lines.reserveCapacity(count)
        var text = ""
        var seq: UInt64 = 0
        for event in JSONLinesBench.events(count: count) {
            text.removeAll(keepingCapacity: true)
            encoder.encode(event, into: &text)
            guard text.hasSuffix("}\n") else { continue }
            seq += 1
            text.removeLast(2)
            text += ",\"seq\":\(seq)}\n"
            lines.append(Array(text.utf8))
        }
        return lines
    }

    /// Decodes every line as a viewer does; returns seconds and how many lines decoded (all of
    /// them unless the decoder is broken).
    public static func decode(_ lines: [[UInt8]]) -> (seconds: Double, decoded: Int) {
        let decoder = JSONLinesDecoder()
        var decoded = 0
        var seqs: UInt64 = 0
        let seconds = time {
            for line in lines {
                guard let line = try? decoder.decode(bytes: line) else { continue }
                decoded += 1
                seqs &+= line.seq ?? 0
            }
        }
        blackHole(seqs)
        return (seconds, decoded)
    }

    @inline(never)
    static func blackHole(_ value: UInt64) {
        if value == 1 { print("") }
    }
}
