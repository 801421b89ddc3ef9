import OpsMonitor

/// Constants of the `opsdash/1` protocol (docs/PROTOCOL.md).
public enum RemoteProtocol {
    /// Protocol versions this build speaks.
    public static let versions: ClosedRange<Int> = 1...1
    /// The longest line either side accepts, newline excluded.
    public static let maximumLineLength = 65_536
    /// Concurrency limits `set_limit` accepts: the range `opsdash`'s `+` and `-` step within.
    public static let limitRange = 1...1_024
    /// The most operation ids one `cancel_many` may name.
    package static let maximumCancelMany = 10_000
}

/// A JSON string literal.
package func jsonString(_ text: String) -> String {
    var output = ""
    JSONLinesEncoder.appendString(text, &output)
    return output
}
