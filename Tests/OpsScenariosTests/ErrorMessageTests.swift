import Foundation
import OpsScenarios
import Testing

/// Each bad input produces exactly this one-line problem.
struct ErrorMessageTests {
    static let cases: [(String, String)] = [
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": -5, "bandwidth": 100}"#),
            "operations[0].size must be > 0 (got -5)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "upload", "size": 10, "bandwidth": 0}"#),
            "operations[0].bandwidth must be > 0 (got 0)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 10, "bandwidth": {"min": -1, "max": 5}}"#),
            "operations[0].bandwidth.min must be > 0 (got -1)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": {"min": 10, "max": 5}, "bandwidth": 1}"#),
            "operations[0].size.min must be <= max (got 10 > 5)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "copy"}"#),
            #"operations[0].kind must be one of download, upload, process (got "copy")"#
        ),
        (
            Fixture.scenario("\(Fixture.download), \(Fixture.download)"),
            #"operations[1].id "a" is already used by operations[0]"#
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process", "duration": 1, "after": ["zz"]}"#),
            #"operations[0].after refers to unknown id "zz""#
        ),
        (
            Fixture.scenario(
                #"""
                {"id": "a", "kind": "process", "duration": 1, "after": ["b"]},
                {"id": "b", "kind": "process", "duration": 1, "after": ["c"]},
                {"id": "c", "kind": "process", "duration": 1, "after": ["a"]}
                """#),
            "dependency cycle: a → b → c → a"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process", "duration": 1, "after": ["a"]}"#),
            "dependency cycle: a → a"
        ),
        (Fixture.scenario(Fixture.download, concurrency: 0), "concurrency must be >= 1 (got 0)"),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 10, "bandwidth": 1, "jitter": 1.5}"#),
            "operations[0].jitter must be within 0…1 (got 1.5)"
        ),
        (
            Fixture.scenario(
                #"{"id": "a", "kind": "download", "size": 10, "bandwidth": 1, "failure": {"at": 2, "message": "x"}}"#),
            "operations[0].failure.at must be within 0…1 (got 2)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 10, "bandwidth": 1, "failureChance": -0.5}"#),
            "operations[0].failureChance must be within 0…1 (got -0.5)"
        ),
        (
            Fixture.scenario(
                #"""
                {"id": "a-{i}", "kind": "process", "duration": 1, "repeat": 600000},
                {"id": "b-{i}", "kind": "process", "duration": 1, "repeat": 400001}
                """#),
            "too many operations: 1000001 after repeat expansion (limit 1000000)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 2000000000000, "bandwidth": 1}"#),
            "operations[0].size must be <= 1000000000000 (1 TB) (got 2000000000000)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 10, "bandwidth": 1, "retries": -1}"#),
            "operations[0].retries must be >= 0 (got -1)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 10, "bandwith": 1}"#),
            "operations[0].bandwith is not a known field"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": "big", "bandwidth": 1}"#),
            #"operations[0].size must be a number or {"min": a, "max": b}"#
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 1, "bandwidth": 1, "retries": "x"}"#),
            "operations[0].retries must be an integer"
        ),
        (
            Fixture.scenario(Fixture.download).replacingOccurrences(
                of: "\"concurrency\": 2", with: "\"concurrency\": \"many\""),
            "concurrency must be an integer"
        ),
        (
            Fixture.scenario("\(Fixture.download), {\"id\": \"b\", \"size\": 1}"),
            "operations[1].kind is required"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "bandwidth": 1}"#),
            "operations[0].size is required for download operations"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process"}"#),
            "operations[0].duration is required for process operations"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process", "duration": 1, "size": 5}"#),
            "operations[0].size is not used by process operations"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process", "duration": 1, "repeat": 3}"#),
            "operations[0].id must contain {i} when repeat is set"
        ),
        (
            Fixture.scenario(#"{"id": "a-{i}", "kind": "process", "duration": 1, "repeat": 0}"#),
            "operations[0].repeat must be >= 1 (got 0)"
        ),
        (
            Fixture.scenario(
                #"{"id": "a-{i}", "kind": "process", "duration": 1, "repeat": 3, "after": ["b-{i}"]}, {"id": "b-{i}", "kind": "process", "duration": 1, "repeat": 2}"#
            ),
            #"operations[0].after refers to unknown id "b-3""#
        ),
        (
            Fixture.scenario(Fixture.download, seed: 1).replacingOccurrences(of: "\"seed\": 1", with: "\"seed\": -1"),
            "seed must be a non-negative integer"
        ),
        (
            #"{"name": "t", "description": "d", "concurrency": 1, "seed": 1, "operations": []}"#,
            "operations must not be empty"
        ),
        (#"{"name": "t", "concurrency": 1, "seed": 1, "operations": []}"#, "description is required"),
        ("[1, 2]", "the top level must be an object (got an array)"),
        ("{\n  \"name\": \"t\",\n  \"seed\": 1 2\n}", "not valid JSON at line 3, column 13: unexpected character '2'"),
        ("{\n  \"name\": \"t\",\n  \"operations\": [\n", "not valid JSON at line 4, column 1: unexpected end of file"),
        ("{\"name\": \"t\" ,, }", "not valid JSON at line 1, column 15: unexpected character ','"),
        ("", "not valid JSON: the file is empty"),
        ("{\"name\": \"t", "not valid JSON at line 1, column 12: unterminated string"),
        ("{\"name\": \"a\tb\"}", "not valid JSON at line 1, column 12: control character in string"),
        ("{} x", "not valid JSON at line 1, column 4: unexpected text after the end"),
        (Fixture.scenario(#"{"id": "", "kind": "process", "duration": 1}"#), "operations[0].id must not be empty"),
        (
            Fixture.scenario(#"{"id": "a-{i}", "kind": "process", "duration": 1}"#),
            "operations[0].id contains {i} but repeat is not set"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "upload", "size": 1, "bandwidth": 1, "duration": 3}"#),
            "operations[0].duration is only for process operations"
        ),
        (
            Fixture.scenario(
                #"\#(Fixture.download), {"id": "b", "kind": "process", "duration": 1, "after": ["a", "a"]}"#),
            #"operations[1].after lists "a" more than once"#
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process", "duration": 100000}"#),
            "operations[0].duration must be <= 86400 (1 day) (got 100000)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process", "duration": 1, "failure": {"at": 0.5, "message": "m"}}"#),
            "operations[0].failure.at is not used by process operations"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 1, "bandwidth": 1, "after": ["b", 3]}"#),
            "operations[0].after[1] must be a string"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 1, "bandwidth": 1, "failure": {"at": 0.5}}"#),
            "operations[0].failure.message is required"
        ),
        (
            Fixture.scenario(
                #"{"id": "a", "kind": "download", "size": 1, "bandwidth": 1, "failure": {"message": "x", "attempts": 0}}"#
            ),
            "operations[0].failure.attempts must be >= 1 (got 0)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 1, "bandwidth": 1, "retries": 1.5}"#),
            "operations[0].retries must be an integer (got 1.5)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 1, "bandwidth": 1, "retries": 1e30}"#),
            "operations[0].retries must be <= 1000 (got 1e+30)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": 1, "bandwidth": 1, "after": "b"}"#),
            "operations[0].after must be an array of strings"
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "download", "size": null, "bandwidth": 1}"#),
            "operations[0].size is required for download operations"
        ),
        (
            Fixture.scenario(#"{"id": 5, "kind": "download", "size": 1, "bandwidth": 1}"#),
            "operations[0].id must be a string"
        ),
    ]

    /// Texts Foundation's decoder accepts or misreports; the strict check names each problem.
    static let strictCases: [(String, String)] = [
        (#"{"name": "t",}"#, "not valid JSON at line 1, column 13: trailing comma before '}'"),
        (#"{"a": [1, 2,]}"#, "not valid JSON at line 1, column 12: trailing comma before ']'"),
        (#"{"seed": 01}"#, "not valid JSON at line 1, column 10: malformed number '01' (leading zero)"),
        (
            #"{"seed": 1.}"#,
            "not valid JSON at line 1, column 10: malformed number '1.' (no digit after the decimal point)"
        ),
        (#"{"seed": +1}"#, "not valid JSON at line 1, column 10: malformed number '+1' (a leading '+' is not allowed)"),
        (
            #"{"seed": .5}"#,
            "not valid JSON at line 1, column 10: malformed number '.5' (no digit before the decimal point)"
        ),
        (#"{"seed": 1e}"#, "not valid JSON at line 1, column 10: malformed number '1e' (no digit in the exponent)"),
        (#"{"seed": -}"#, "not valid JSON at line 1, column 10: malformed number '-' (no digit after '-')"),
        (#"{"seed": 0x10}"#, "not valid JSON at line 1, column 10: malformed number '0x10' (unexpected 'x')"),
        (
            #"{"seed": NaN}"#,
            "not valid JSON at line 1, column 10: malformed number 'NaN' (JSON has no NaN or Infinity)"
        ),
        (
            #"{"seed": -Infinity}"#,
            "not valid JSON at line 1, column 10: malformed number '-Infinity' (JSON has no NaN or Infinity)"
        ),
        (#"{"seed": 1e400}"#, "not valid JSON at line 1, column 10: number '1e400' is too large"),
        (#"{"seed": 1e-400}"#, "not valid JSON at line 1, column 10: number '1e-400' is too small (it would be 0)"),
        (#"{"name": "t", "name": "u"}"#, #"not valid JSON at line 1, column 15: duplicate field "name""#),
        (
            "{" + (1...40).map { "\"k\($0)\": 1" }.joined(separator: ", ")
                + ",\n \"inner\": {\"k33\": 1, \"k1\": 2}, \"k3\": 2}",
            #"not valid JSON at line 2, column 32: duplicate field "k3""#
        ),
        (#"{"name": "\ud800"}"#, #"not valid JSON at line 1, column 11: unpaired surrogate in \u escape"#),
        (#"{"name": "\udc00\ud800"}"#, #"not valid JSON at line 1, column 11: unpaired surrogate in \u escape"#),
        (#"{"name": "\u12"}"#, #"not valid JSON at line 1, column 11: invalid \u escape"#),
        (#"{"name": "\x"}"#, "not valid JSON at line 1, column 11: invalid escape in string"),
        ("{\"name\": \"t\" // note\n}", "not valid JSON at line 1, column 14: comments are not allowed in JSON"),
        (#"{name: "t"}"#, "not valid JSON at line 1, column 2: field names must be strings in double quotes"),
        (#"{'name': "t"}"#, "not valid JSON at line 1, column 2: field names must be strings in double quotes"),
        (#"{"name": é}"#, "not valid JSON at line 1, column 10: unexpected character 'é'"),
        ("{\"name\": \u{1B}}", "not valid JSON at line 1, column 10: unexpected byte 0x1B"),
        (
            String(repeating: "[", count: 600),
            "not valid JSON at line 1, column 513: nested too deeply (more than 512 levels)"
        ),
        ("\u{FEFF}{} x", "not valid JSON at line 1, column 4: unexpected text after the end"),
        ("  \n ", "not valid JSON at line 2, column 2: unexpected end of file"),
        ("null", "the top level must be an object (got null)"),
        ("42", "the top level must be an object (got a number)"),
        (#""scenario""#, "the top level must be an object (got a string)"),
        (
            Fixture.scenario(#"{"id": "a-{i}", "kind": "process", "duration": 1, "repeat": 1e20}"#),
            "operations[0].repeat must be <= 1000000 (got 1e+20)"
        ),
        (
            Fixture.scenario(#"{"id": "a-{i}", "kind": "process", "duration": 1, "repeat": 99999999999999999999}"#),
            "operations[0].repeat must be <= 1000000 (got 1e+20)"
        ),
        (
            Fixture.scenario(#"{"id": "a-{i}", "kind": "process", "duration": 1, "repeat": -1e20}"#),
            "operations[0].repeat must be >= 1 (got -1e+20)"
        ),
        (
            Fixture.scenario(Fixture.download).replacingOccurrences(
                of: "\"concurrency\": 2", with: "\"concurrency\": 1e18"),
            "concurrency must be <= 10000 (got 1e+18)"
        ),
        (
            Fixture.scenario(#"{"id": "a", "name": "file-{i}", "kind": "process", "duration": 1}"#),
            "operations[0].name contains {i} but repeat is not set"
        ),
        (
            Fixture.scenario(
                #"\#(Fixture.download), {"id": "b", "kind": "process", "duration": 1, "after": ["a", "c-{i}"]}"#),
            "operations[1].after[1] contains {i} but repeat is not set"
        ),
    ]

    /// Bytes that are not UTF-8 text.
    static let byteCases: [([UInt8], String)] = [
        (
            Array(#"{"name": "a"#.utf8) + [0xFF] + Array(#""}"#.utf8),
            "not valid JSON at line 1, column 12: invalid UTF-8 (byte 0xFF)"
        ),
        (
            Array(#"{"name": "a"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
            "not valid JSON at line 1, column 12: invalid UTF-8 (byte 0xED)"
        ),
        (
            Array(#"{"name": "a"#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8),
            "not valid JSON at line 1, column 12: invalid UTF-8 (byte 0xC0)"
        ),
        (
            Array(#"{"name": "#.utf8) + [0xC3, 0x28, 0x7D],
            "not valid JSON at line 1, column 10: invalid UTF-8 (byte 0xC3)"
        ),
        ([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], "not valid JSON: the file is UTF-16; save it as UTF-8"),
        ([0x7B, 0x00, 0x7D, 0x00], "not valid JSON: the file is UTF-16; save it as UTF-8"),
        ([0xFF, 0xFE, 0x00, 0x00, 0x7B, 0x00, 0x00, 0x00], "not valid JSON: the file is UTF-32; save it as UTF-8"),
    ]

    @Test func byteOrderMarkIsIgnored() throws {
        let scenario = try Fixture.decode("\u{FEFF}" + Fixture.scenario(Fixture.download))
        #expect(scenario.operations.map(\.id) == ["a"])
    }

    @Test func placeholdersAreKeptWhereNotExpanded() throws {
        let scenario = try Fixture.decode(
            Fixture.scenario(
                #"{"id": "a", "kind": "process", "duration": 1, "failure": {"message": "lost {i}"}}"#))
        #expect(scenario.operations.first?.processFailure == "lost {i}")
    }

    /// Every case above as file content and the exact problem it must produce.
    static let allCases: [(Data, String)] =
        (cases + strictCases).map { (Data($0.0.utf8), $0.1) } + byteCases.map { (Data($0.0), $0.1) }

    @Test(arguments: 0..<allCases.count)
    func badInputNamesTheProblem(index: Int) throws {
        let (data, expected) = Self.allCases[index]
        let path = try Fixture.write(data: data)
        #expect(throws: ScenarioError(source: path, problem: expected)) {
            try ScenarioLoader.load(path: path)
        }
    }

    @Test func descriptionIsOneLineNamingTheFile() throws {
        let path = try Fixture.write(Fixture.scenario(#"{"id": "a", "kind": "download", "size": -5, "bandwidth": 1}"#))
        let error = try #require(
            try Fixture.error(Fixture.scenario(#"{"id": "a", "kind": "download", "size": -5, "bandwidth": 1}"#)))
        #expect(error.description.hasPrefix("scenario '/"))
        #expect(error.description.hasSuffix("/bad.json': operations[0].size must be > 0 (got -5)"))
        #expect(!error.description.contains("\n"))
        let direct = ScenarioError(source: "bad.json", problem: "operations[3].size must be > 0 (got -5)")
        #expect(direct.description == "scenario 'bad.json': operations[3].size must be > 0 (got -5)")
        _ = path
    }

    @Test func missingFile() {
        let path = "/nonexistent/dir/missing.json"
        #expect(throws: ScenarioError(source: path, problem: "file not found")) {
            try ScenarioLoader.load(path: path)
        }
    }

    @Test func directoryIsNotAFile() {
        let path = FileManager.default.temporaryDirectory.path
        #expect(throws: ScenarioError(source: path, problem: "is a directory, not a file")) {
            try ScenarioLoader.load(path: path)
        }
    }

    @Test func unknownNameOrPathFallsBackToFile() {
        #expect(
            throws: ScenarioError(
                source: "nosuch",
                problem: "not a built-in scenario (burst, downloads, flaky, mixed, pipeline, uploads) and no such file")
        ) {
            try ScenarioLoader.load(nameOrPath: "nosuch")
        }
        #expect(throws: ScenarioError(source: "nosuch.json", problem: "file not found")) {
            try ScenarioLoader.load(nameOrPath: "nosuch.json")
        }
        #expect(throws: ScenarioError(source: "./mixed", problem: "file not found")) {
            try ScenarioLoader.load(nameOrPath: "./mixed")
        }
    }
}
