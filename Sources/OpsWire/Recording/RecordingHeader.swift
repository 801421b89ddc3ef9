import Foundation
import OpsMonitor

/// The first line of a recording: what it is, which version of the format, and where it came
/// from. `{"event":"recording","format":"opsdash-recording","version":1,"app":…,"queue":…,
/// "started":"2026-11-24T06:40:00Z","source":"local"}` (docs/RECORDINGS.md).
public struct RecordingHeader: Sendable, Equatable {
    /// The `format` value every recording carries.
    public static let format = "opsdash-recording"
    /// The newest format version this build reads and writes.
    public static let currentVersion = 1

    public var version: Int
    /// The program that made it (e.g. "opsdash", or the attached app's name).
    public var app: String
    /// The queue recorded (the scenario's name for a local run).
    public var queue: String
    /// Wall-clock start, ISO 8601 UTC; event times (`t`) are seconds after it.
    public var started: String
    /// Where the events came from: "local" (a scenario run) or "attach" (a published queue).
    public var source: String

    public init(
        version: Int = RecordingHeader.currentVersion, app: String, queue: String, started: String, source: String
    ) {
        self.version = version
        self.app = app
        self.queue = queue
        self.started = started
        self.source = source
    }

    /// A header stamped with the current wall-clock time.
    public static func now(app: String, queue: String, source: String) -> RecordingHeader {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return RecordingHeader(app: app, queue: queue, started: formatter.string(from: Date()), source: source)
    }

    /// The header line, ending in "\n".
    public var line: String {
        var output = "{\"event\":\"recording\",\"format\":\"\(Self.format)\",\"version\":\(version),\"app\":"
        JSONLinesEncoder.appendString(app, &output)
        output += ",\"queue\":"
        JSONLinesEncoder.appendString(queue, &output)
        output += ",\"started\":"
        JSONLinesEncoder.appendString(started, &output)
        output += ",\"source\":"
        JSONLinesEncoder.appendString(source, &output)
        output += "}\n"
        return output
    }

    /// Reads a decoded first line; the error says what is wrong with it.
    init(_ decoded: DecodedLine) throws(RecordingProblem) {
        guard case .other("recording") = decoded.line else {
            throw RecordingProblem("not a recording: the first line must be a \"recording\" header")
        }
        let fields = decoded.fields
        guard fields["format"]?.stringValue == Self.format else {
            throw RecordingProblem("not a recording: header format is not \"\(Self.format)\"")
        }
        guard let version = fields["version"]?.intValue else {
            throw RecordingProblem("header has no integer \"version\"")
        }
        guard version >= 1 else {
            throw RecordingProblem("format version \(version) is not a version (they start at 1)")
        }
        guard version <= Self.currentVersion else {
            throw RecordingProblem(
                "format version \(version) is newer than this opsdash reads (\(Self.currentVersion))")
        }
        self.init(
            version: Int(version), app: fields["app"]?.stringValue ?? "", queue: fields["queue"]?.stringValue ?? "",
            started: fields["started"]?.stringValue ?? "", source: fields["source"]?.stringValue ?? "")
    }
}

/// What is wrong with a recording line (the reader adds the file and line number).
public struct RecordingProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A recording that cannot be replayed: the file, the 1-based line number and the problem;
/// printed as `FILE:LINE: problem`.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    /// 1-based; 0 when the problem is the whole file (e.g. it cannot be opened).
    public var line: Int
    public var problem: String

    public init(path: String, line: Int, problem: String) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    public var description: String { line > 0 ? "\(path):\(line): \(problem)" : "\(path): \(problem)" }
}
