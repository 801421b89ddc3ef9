import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpsKitTesting
import Testing

/// A real Prometheus server scrapes two running `opsdash --headless --metrics-port` instances.
@Suite(.ownThread) struct MetricsEndToEndTests {
    /// The example queries docs/METRICS.md documents (each must appear there verbatim).
    static let documentedQueries = [
        "sum by (outcome) (rate(opsdash_operations_finished_total[5m]))",
        "histogram_quantile(0.95, sum by (le) (rate(opsdash_operation_duration_seconds_bucket[5m])))",
        "max by (instance, queue) (opsdash_queue_suspended) == 1",
    ]

    @Test(.enabled(if: prometheusServerEnabled), .timeLimit(.minutes(1)))
    func prometheusSumsFinishedOperationsOfTwoInstancesAsTheirSummariesSay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opsdash-prom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let instances = try [("flaky", "1"), ("pipeline", "2")].map { scenario, seed in
            try BackgroundProcess(
                executable: #require(opsdashBinaryPath()),
                arguments: [
                    "--headless", "--scenario", scenario, "--seed", seed, "--speed", "200",
                    "--metrics-port", "0", "--linger", "inf",
                ],
                in: directory, name: scenario)
        }
        defer { for instance in instances { instance.terminate() } }
        var expected: [String: Int] = ["succeeded": 0, "failed": 0, "cancelled": 0]
        var targets: [String] = []
        for instance in instances {
            let port = try #require(
                await instance.waitForMatch(in: .stderr, #"127\.0\.0\.1:([0-9]+)/metrics"#),
                "\(instance.name) printed its port")
            targets.append("127.0.0.1:\(port)")
            let summary = try #require(
                await instance.waitForMatch(in: .stdout, #"(\{"t":[^\n]*"event":"summary"[^\n]*\})"#),
                "\(instance.name) finished its run")
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
            for outcome in expected.keys { expected[outcome, default: 0] += fields[outcome] as? Int ?? 0 }
        }
        #expect(expected.values.reduce(0, +) > 0)

        let prometheusPort = try ListeningPort.free()
        let config = directory.appendingPathComponent("prometheus.yml")
        try """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        scrape_configs:
          - job_name: opsdash
            static_configs:
              - targets: [\(targets.map { "'\($0)'" }.joined(separator: ", "))]

        """.write(to: config, atomically: true, encoding: .utf8)
        let prometheus = try BackgroundProcess(
            executable: #require(toolPath("prometheus")),
            arguments: [
                "--config.file=\(config.path)", "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
                "--web.listen-address=127.0.0.1:\(prometheusPort)",
            ],
            in: directory, name: "prometheus")
        defer { prometheus.terminate() }

        let api = PrometheusAPI(port: prometheusPort)
        let query = "sum by (outcome) (opsdash_operations_finished_total)"
        var seen: [String: Int] = [:]
        let deadline = ContinuousClock.now + .seconds(25)
        while ContinuousClock.now < deadline {
            if let result = try? await api.vector(query) {
                seen = result.mapValues { Int($0) }
                if seen == expected { break }
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(seen == expected, "Prometheus log: \(prometheus.output(.stderr).suffix(600))")

        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/METRICS.md"), encoding: .utf8)
        for documented in Self.documentedQueries {
            #expect(docs.contains(documented), "docs/METRICS.md shows \(documented)")
            #expect(try await api.vector(documented) != nil, "Prometheus runs \(documented)")
        }
        #expect(try await api.vector(Self.documentedQueries[2]) == [:], "no queue is paused")

        for instance in instances {
            #expect(instance.terminate() < 128, "the run had ended: SIGTERM only ends the lingering")
        }
    }
}

/// The dashboard with `--metrics-port 0`: the port it picked shows in the message line (its
/// stderr is not visible while the screen is up).
@Suite(.ownThread) struct MetricsDashboardTests {
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theChosenPortShowsWhileTheDashboardIsUp() throws {
        let binary = try #require(opsdashBinaryPath())
        let tmux = try TmuxSession(command: "\(shellQuote(binary)) --scenario downloads --speed 4 --metrics-port 0")
        defer { tmux.kill() }
        let shown = try tmux.waitUntil { $0.contains("RUNNING") && $0.contains("metrics at http://127.0.0.1:") }
        #expect(shown.matched, "no metrics address on screen:\n\(shown.screen)")
        let port = shown.screen.split(separator: "\n").first { $0.contains("metrics at http://127.0.0.1:") }
            .flatMap { $0.split(separator: ":").last?.split(separator: "/").first }.flatMap { Int($0) }
        #expect(port.map { (1...65_535).contains($0) } == true, "\(shown.screen)")
        try tmux.sendKeys("q")
        // After the screen closes, the same line is on stderr, not in a left-over log file.
        let after = try tmux.waitUntil { tmux.exitStatus(in: $0) != nil }
        #expect(after.screen.contains("opsdash: metrics at http://127.0.0.1:\(port ?? 0)/metrics"), "\(after.screen)")
        #expect(!after.screen.contains("output written while the screen was up"), "\(after.screen)")
    }
}

/// Bad metrics flags and a port already taken: exit 2 with one line naming the problem.
@Suite(.ownThread) struct MetricsFlagTests {
    @Test func aTakenPortExitsTwoWithOneLine() throws {
        let (fd, port) = try ListeningPort.loopbackSocket(listening: true)
        defer { close(fd) }
        let result = try runOpsdash([
            "--headless", "--scenario", "pipeline", "--speed", "1000", "--metrics-port", "\(port)",
        ])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "opsdash: cannot serve metrics on 127.0.0.1:\(port): Address already in use\n")
    }

    @Test(arguments: [
        (["--headless", "--linger", "5"], "--linger needs --headless and --metrics-port"),
        (["--metrics-port", "70000"], "--metrics-port must be between 0 and 65535 (got 70000)"),
        (
            ["--headless", "--metrics-port", "0", "--linger=-1"],
            "--linger must be a number of seconds, 0 or more (got -1.0)"
        ),
        (
            ["--headless", "--metrics-port", "0", "--linger", "-1"],
            "--linger must be a number of seconds, 0 or more (got -1.0)"
        ),
    ])
    func badMetricsFlagsExitTwo(_ arguments: [String], _ message: String) throws {
        let result = try runOpsdash(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == "opsdash: \(message)\n")
    }
}

/// Whether Prometheus is installed (or we're in CI, where it must be).
let prometheusServerEnabled = toolPath("prometheus") != nil || ProcessInfo.processInfo.environment["CI"] == "true"

/// The repository root.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The path of `tool` on PATH, if any.
func toolPath(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Prometheus's HTTP query API.
struct PrometheusAPI {
    let port: Int

    /// An instant query's vector as (first label value or "") → value; nil if it failed.
    func vector(_ query: String) async throws -> [String: Double]? {
        var components = URLComponents(string: "http://127.0.0.1:\(port)/api/v1/query")
        components?.queryItems = [URLQueryItem(name: "query", value: query)]
        guard let url = components?.url else { return nil }
        let (data, _) = try await URLSession.shared.data(from: url)
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            json["status"] as? String == "success",
            let payload = json["data"] as? [String: Any]
        else { return nil }
        var vector: [String: Double] = [:]
        for sample in payload["result"] as? [[String: Any]] ?? [] {
            let labels = sample["metric"] as? [String: String] ?? [:]
            let value = (sample["value"] as? [Any])?.last as? String
            vector[labels.values.sorted().first ?? ""] = value.flatMap(Double.init) ?? .nan
        }
        return vector
    }
}

/// A process running in the background with stdout and stderr in files.
final class BackgroundProcess: Sendable {
    enum Stream: String { case stdout, stderr }

    let name: String
    private let process: Process
    private let directory: URL

    init(executable: String, arguments: [String], in directory: URL, name: String) throws {
        self.name = name
        self.directory = directory
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        for stream in [Stream.stdout, .stderr] {
            _ = FileManager.default.createFile(atPath: Self.path(directory, name, stream), contents: nil)
        }
        process.standardOutput = FileHandle(forWritingAtPath: Self.path(directory, name, .stdout))
        process.standardError = FileHandle(forWritingAtPath: Self.path(directory, name, .stderr))
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        self.process = process
    }

    private static func path(_ directory: URL, _ name: String, _ stream: Stream) -> String {
        directory.appendingPathComponent("\(name).\(stream.rawValue)").path
    }

    func output(_ stream: Stream) -> String {
        (try? String(contentsOfFile: Self.path(directory, name, stream), encoding: .utf8)) ?? ""
    }

    /// The first capture group of `pattern` in `stream`, waiting up to `timeout` seconds.
    func waitForMatch(in stream: Stream, _ pattern: String, timeout: Double = 15) async -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while ContinuousClock.now < deadline {
            let text = output(stream)
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range(at: 1), in: text)
            {
                return String(text[range])
            }
            if !process.isRunning && text == output(stream) { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Sends SIGTERM (if still running) and waits; returns the exit status.
    @discardableResult
    func terminate() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
