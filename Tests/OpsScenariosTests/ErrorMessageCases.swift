import Foundation

/// The bad inputs `ErrorMessageTests` loads, each with the exact one-line problem it must produce.
extension ErrorMessageTests {
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
        (
            Fixture.scenario(
                #"{"id": "a", "kind": "process", "duration": 1, "after": ["b"], "onDependencyFailure": "skip"}"#),
            #"operations[0].onDependencyFailure must be "run" or "cancel" (got "skip")"#
        ),
        (
            Fixture.scenario(#"{"id": "a", "kind": "process", "duration": 1, "onDependencyFailure": "cancel"}"#),
            "operations[0].onDependencyFailure needs after (the entry has no dependencies)"
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
            // The invalid entry is named, not counted into a total after the limit is passed.
            Fixture.scenario(
                #"""
                {"id": "a-{i}", "kind": "process", "duration": 1, "repeat": 1000001},
                {"id": "b-{i}", "kind": "process", "duration": 1, "repeat": -5}
                """#),
            "operations[1].repeat must be >= 1 (got -5)"
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
}
