import Foundation
import Testing

@testable import OpsDashApp

/// The line a terminal shows while a large recording is checked: rewritten in place, erased when
/// done, never on a stderr that is not a terminal.
@Suite struct OpeningProgressTests {
    /// What `body` writes through a progress line on a pipe.
    static func written(isTerminal: Bool, _ body: (OpeningProgress) -> Void) throws -> String {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let progress = OpeningProgress(
            path: "/records/run.jsonl", descriptor: ends[1], isTerminal: isTerminal, quietFor: .zero)
        body(progress)
        close(ends[1])
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(ends[0], &buffer, buffer.count), count > 0 {
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theLineIsRewrittenInPlaceAndErased() throws {
        let text = try Self.written(isTerminal: true) { progress in
            progress.update(read: 0, size: 400_000_000)
            progress.update(read: 200_000_000, size: 400_000_000)  // within the interval: not shown
            progress.finish()
        }
        let line = "opsdash: checking run.jsonl: 0% of 400.0 MB"
        #expect(text == "\r" + line + "\r" + String(repeating: " ", count: line.count) + "\r")
    }

    @Test func nothingIsWrittenWhereStderrIsNoTerminal() throws {
        let text = try Self.written(isTerminal: false) { progress in
            progress.update(read: 100, size: 400_000_000)
            progress.finish()
        }
        #expect(text.isEmpty)
    }

    @Test func aLongOrHostileNameIsCutAndEscaped() {
        #expect(OpeningProgress.line(name: "a", read: 3, size: 4) == "opsdash: checking a: 75% of 4 B")
        let cut = OpeningProgress.displayedName(of: "/tmp/\u{1B}[2J" + String(repeating: "名", count: 40))
        #expect(cut.hasPrefix("\\u{1B}[2J"))
        #expect(cut.hasSuffix("…"))
        #expect(cut.unicodeScalars.allSatisfy { $0.value >= 0x20 })
    }
}
