import Foundation
import OpsScenarios
import Testing

/// Each bad input produces exactly this one-line problem.
struct ErrorMessageTests {
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
        (#"{"name": "t", "na\u006de": "u"}"#, #"not valid JSON at line 1, column 15: duplicate field "na\u006de""#),
        (#"{"na\u006de": "t", "name": "u"}"#, #"not valid JSON at line 1, column 20: duplicate field "name""#),
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

    /// Ids are compared as text, not bytes: "é" written as one code point and as "e" plus a
    /// combining accent look the same everywhere, so they are the same id (and `after` finds
    /// either spelling).
    @Test func canonicallyEquivalentIdsAreTheSameId() throws {
        let composed = #"{"id": "caf\u00e9", "kind": "process", "duration": 1}"#
        let decomposed = #"{"id": "cafe\u0301", "kind": "process", "duration": 1}"#
        let error = try #require(try Fixture.error(Fixture.scenario("\(composed), \(decomposed)")))
        #expect(error.description.hasSuffix(#"operations[1].id "café" is already used by operations[0]"#))
        let dependent = #"{"id": "b", "kind": "process", "duration": 1, "after": ["cafe\u0301"]}"#
        let scenario = try Fixture.decode(Fixture.scenario("\(composed), \(dependent)"))
        #expect(scenario.operations.map(\.dependencies) == [[], ["café"]])
    }

    /// `null` means absent for every optional field, `after` too (no dependencies).
    @Test func nullAfterMeansNoDependencies() throws {
        let scenario = try Fixture.decode(
            Fixture.scenario(
                #"{"id": "a", "kind": "process", "duration": 1, "after": null}, {"id": "b", "kind": "process", "duration": 1, "after": ["a"]}"#
            ))
        #expect(scenario.operations.map(\.dependencies) == [[], ["a"]])
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
        try Fixture.withFile(data: data) { path in
            #expect(throws: ScenarioError(source: path, problem: expected)) {
                try ScenarioLoader.load(path: path)
            }
        }
    }

    @Test func descriptionIsOneLineNamingTheFile() throws {
        let error = try #require(
            try Fixture.error(Fixture.scenario(#"{"id": "a", "kind": "download", "size": -5, "bandwidth": 1}"#)))
        #expect(error.description.hasPrefix("scenario '/"))
        #expect(error.description.hasSuffix("/bad.json': operations[0].size must be > 0 (got -5)"))
        #expect(!error.description.contains("\n"))
        let direct = ScenarioError(source: "bad.json", problem: "operations[3].size must be > 0 (got -5)")
        #expect(direct.description == "scenario 'bad.json': operations[3].size must be > 0 (got -5)")
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
