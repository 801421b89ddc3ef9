import Foundation
import OpsKitTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scenario files a user might point `opsdash` at by mistake: each ends at once with status 2 and
/// exactly one printable `opsdash: ` line on stderr (no raw control characters).
@Suite(.ownThread) struct BadScenarioInputTests {
    private static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func expectOnePrintableLine(_ result: ProcessResult, containing text: String) {
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("opsdash: scenario '"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\n") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        let controls = result.stderr.dropLast().unicodeScalars.filter {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
        }
        #expect(controls.isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains(text), "\(result.stderr)")
    }

    @Test func controlCharactersInPathAndContentAreEscaped() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("evil\n\u{1B}[2J.json")
        let json =
            #"{"name":"x","description":"d","concurrency":2,"seed":1,"#
            + #""operations":[{"id":"a","kind":"\u001b]0;owned\u0007"}]}"#
        try Data(json.utf8).write(to: file)
        let result = try runOpsdash(["--headless", "--scenario", file.path])
        Self.expectOnePrintableLine(result, containing: #"evil\n\u{1B}[2J.json': operations[0].kind must be one of"#)
        #expect(result.stderr.contains(#"(got "\u{1B}]0;owned\u{7}")"#))
    }

    @Test(.timeLimit(.minutes(1))) func fifoDeviceAndHugeFileEndAtOnce() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        Self.expectOnePrintableLine(try runOpsdash(["--headless", "--scenario", fifo]), containing: "is a pipe (FIFO)")
        Self.expectOnePrintableLine(
            try runOpsdash(["--headless", "--scenario", "/dev/zero"]), containing: "is a character device")
        let huge = dir.appendingPathComponent("huge.json")
        try Data().write(to: huge)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 5_000_000_000)  // sparse: no disk used
        try handle.close()
        Self.expectOnePrintableLine(
            try runOpsdash(["--headless", "--scenario", huge.path]),
            containing: "file is too large: 5000000000 bytes (limit 100000000 bytes, 100 MB)")
    }

    @Test func trailingCommaIsNotJSON() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("comma.json")
        try Data(#"{"name": "x", "operations": [1, 2,]}"#.utf8).write(to: file)
        Self.expectOnePrintableLine(
            try runOpsdash(["--headless", "--scenario", file.path]),
            containing: "not valid JSON at line 1, column 34: trailing comma before ']'")
    }
}
