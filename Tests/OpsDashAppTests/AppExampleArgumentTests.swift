import Foundation
import OpsKitTesting
import Testing

/// `AppExample`'s command line: every bad value is one line naming the flag and its rule, exit 2,
/// before anything is published; `--help` prints the usage and exits 0; a port that cannot be
/// bound is one line and exit 2.
@Suite struct AppExampleArgumentTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs AppExample with `arguments` in a private runtime directory until it exits (killed,
    /// and the test failed, if it is still running after 60 s).
    static func run(_ arguments: [String]) throws -> Run {
        let path = try #require(AppExampleTests.binaryPath(), "AppExample is not built next to the tests")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("appexample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        #expect(FileManager.default.createFile(atPath: outURL.path, contents: nil))
        #expect(FileManager.default.createFile(atPath: errURL.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = scratch.path
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if !waitFor(ended, seconds: 60) {
            process.terminate()
            _ = waitFor(ended, seconds: 10)
            Issue.record("AppExample \(arguments) still ran after 60 s")
        }
        return Run(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    // `--rounds 1` first: without the check, the app would run one round and exit 0.
    static let badValues: [([String], String)] = [
        (["--metrics-port", "70000"], "--metrics-port must be a whole number between 0 and 65535 (got '70000')"),
        (["--metrics-port", "-1"], "--metrics-port must be a whole number between 0 and 65535 (got '-1')"),
        (["--metrics-port", "abc"], "--metrics-port must be a whole number between 0 and 65535 (got 'abc')"),
        (["--metrics-port"], "--metrics-port needs a value (see --help)"),
        (["--tcp-port", "70000"], "--tcp-port must be a whole number between 0 and 65535 (got '70000')"),
        (["--tcp-port", "1e3"], "--tcp-port must be a whole number between 0 and 65535 (got '1e3')"),
        (["--rounds", "-2"], "--rounds must be a whole number 0 or more (got '-2')"),
        (["--speed", "0"], "--speed must be a number between 0.01 and 10000 (got '0')"),
        (["--speed", "nan"], "--speed must be a number between 0.01 and 10000 (got 'nan')"),
        (["--metrics-prot", "9464"], "unknown argument '--metrics-prot' (see --help)"),
    ]

    @Test(arguments: 0..<badValues.count)
    func aBadValueIsOneLineAndExit2(_ index: Int) throws {
        let (arguments, message) = Self.badValues[index]
        let run = try Self.run(["--rounds", "1"] + arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr == "AppExample: \(message)\n", "\(arguments)")
        #expect(run.stdout.isEmpty, "\(arguments): nothing starts: \(run.stdout)")
    }

    @Test func helpPrintsTheUsageAndExits0() throws {
        let run = try Self.run(["--help", "--rounds", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("usage: AppExample "), "\(run.stdout)")
        for flag in ["--rounds", "--speed", "--allow-control", "--tcp-port", "--metrics-port"] {
            #expect(run.stdout.contains(flag), "usage names \(flag)")
        }
        #expect(!run.stdout.contains("publishing on"))
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: ["--metrics-port", "--tcp-port"])
    func aPortInUseIsOneLineAndExit2(_ flag: String) throws {
        let taken = try ListeningPort()
        let run = try Self.run(["--rounds", "1", flag, String(taken.port)])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.hasPrefix("AppExample: "), "\(run.stderr)")
        #expect(run.stderr.contains("Address already in use"), "\(run.stderr)")
        if flag == "--metrics-port" {
            #expect(
                run.stderr.hasPrefix("AppExample: --metrics-port: cannot serve metrics on 127.0.0.1:\(taken.port): "),
                "\(run.stderr)")
        } else {
            #expect(
                run.stderr
                    == "AppExample: --tcp-port: cannot listen on tcp://127.0.0.1:\(taken.port): Address already in use\n",
                "names the flag and the port, in words: \(run.stderr)")
        }
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!run.stdout.contains("queue drained"), "the app ran: \(run.stdout)")
    }
}
