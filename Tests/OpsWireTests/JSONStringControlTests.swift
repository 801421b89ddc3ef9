import Foundation
import Testing

@testable import OpsMonitor
@testable import OpsWire

/// Names in the JSON Lines stream reach a terminal when stdout is one: every control character is
/// written as an escape, and the decoded value is unchanged.
struct JSONStringControlTests {
    @Test func controlAndBidiCharactersAreEscapedAndDecodeBack() throws {
        let name = "a\u{1B}[2J\u{7F}\u{9B}31m\u{202E}b"
        var out = ""
        JSONLinesEncoder.appendString(name, &out)
        #expect(out == #""a\u001b[2J\u007f\u009b31m\u202eb""#)
        let decoded = try JSONDecoder().decode(String.self, from: Data(out.utf8))
        #expect(decoded == name)
    }
}
