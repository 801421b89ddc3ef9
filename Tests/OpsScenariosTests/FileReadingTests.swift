import Foundation
import OpsScenarios
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the loader does with files that are too large, not regular, or have odd names: one clear
/// problem, quickly, without reading what it refuses.
struct FileReadingTests {
    @Test func fileOverTheLimitIsRefusedBeforeReading() throws {
        try Fixture.withFile("") { path in
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: UInt64(ScenarioLimits.maxFileBytes + 1))  // sparse: nothing written
            try handle.close()
            #expect(
                throws: ScenarioError(
                    source: path, problem: "file is too large: 100000001 bytes (limit 100000000 bytes, 100 MB)")
            ) {
                try ScenarioLoader.load(path: path)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func fifoIsRefusedWithoutWaitingForAWriter() throws {
        try Fixture.withFile("") { file in
            let path = file + ".fifo"
            #expect(mkfifo(path, 0o600) == 0)
            #expect(throws: ScenarioError(source: path, problem: "is a pipe (FIFO), not a regular file")) {
                try ScenarioLoader.load(path: path)
            }
        }
    }

    @Test func deviceIsRefused() {
        #expect(throws: ScenarioError(source: "/dev/zero", problem: "is a character device, not a regular file")) {
            try ScenarioLoader.load(path: "/dev/zero")
        }
    }

    @Test func fileInPlaceOfADirectoryIsNotFound() throws {
        try Fixture.withFile("{}") { file in
            let path = file + "/inside.json"
            #expect(throws: ScenarioError(source: path, problem: "file not found")) {
                try ScenarioLoader.load(path: path)
            }
        }
    }

    @Test func controlCharactersInThePathAreEscapedInTheMessage() throws {
        let error = try #require(
            try Fixture.withFile("{", name: "bad\n\u{1B}[31mname.json") { try Fixture.error(atPath: $0) })
        #expect(!error.description.contains("\n"))
        #expect(!error.description.contains("\u{1B}"))
        #expect(
            error.description.hasSuffix(
                "/bad\\n\\u{1B}[31mname.json': not valid JSON at line 1, column 2: unexpected end of file"))
    }

    @Test func controlCharactersFromTheContentAreEscapedInTheMessage() throws {
        let ops = #"{"id": "a", "kind": "co\u001b[31mpy\n"}"#
        let error = try #require(try Fixture.error(Fixture.scenario(ops)))
        #expect(
            error.description.hasSuffix(
                #"operations[0].kind must be one of download, upload, process (got "co\u{1B}[31mpy\n")"#))
        let duplicate = #"{"id": "a\u001b[2J\u202e", "kind": "process", "duration": 1}"#
        let second = try #require(try Fixture.error(Fixture.scenario("\(duplicate), \(duplicate)")))
        #expect(
            second.description.hasSuffix(
                #"operations[1].id "a\u{1B}[2J\u{202E}" is already used by operations[0]"#))
    }
}
