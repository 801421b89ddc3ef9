import OpsMonitor
import OpsWire

/// Reads what `opsdash relay --list` writes on another host (`RelayList`) into rounds of
/// `FleetEntry`s. Every byte comes from the far side and is hostile: a line longer than
/// `lineLimit` or a round of more than `appLimit` apps ends the reading with a problem; a line
/// that is not a well-formed entry (bad JSON, a missing or negative field, text longer than
/// `textLimit`) is skipped.
@_spi(OpsDashInternals) public struct RelayListReader {
    /// One round: the apps the host listed, and its wall time when it did (seconds since 1970).
    @_spi(OpsDashInternals) public struct Round: Equatable {
        @_spi(OpsDashInternals) public var entries: [FleetEntry]
        @_spi(OpsDashInternals) public var time: Double

        package init(entries: [FleetEntry], time: Double) {
            self.entries = entries
            self.time = time
        }
    }

    /// Why the host's output cannot be read on (one line).
    @_spi(OpsDashInternals) public struct Problem: Error, Equatable, CustomStringConvertible {
        @_spi(OpsDashInternals) public var description: String

        package init(description: String) { self.description = description }
    }

    /// The longest line read, in bytes (an entry line is a few hundred).
    @_spi(OpsDashInternals) public static let lineLimit = 16_384
    /// The most apps one host's round may list.
    @_spi(OpsDashInternals) public static let appLimit = 1_000
    /// The longest app, queue or socket text kept, in characters.
    @_spi(OpsDashInternals) public static let textLimit = 255

    private var buffer: [UInt8] = []
    private var pending: [FleetEntry] = []

    /// A reader at the start of the host's output.
    @_spi(OpsDashInternals) public init() {}

    /// Takes `bytes`: the rounds they complete, or why reading ends.
    @_spi(OpsDashInternals) public mutating func read(_ bytes: some Collection<UInt8>) -> Result<[Round], Problem> {
        buffer.append(contentsOf: bytes)
        var rounds: [Round] = []
        var start = 0
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = buffer[start..<newline]
            start = newline + 1
            guard line.count <= Self.lineLimit else { return .failure(Self.tooLong) }
            guard case .object(let object)? = try? JSONLineParser.parse(line) else { continue }
            if object["end"]?.stringValue == "round" {
                rounds.append(Round(entries: pending, time: object["time"]?.doubleValue ?? 0))
                pending.removeAll()
            } else if let entry = Self.entry(object) {
                guard pending.count < Self.appLimit else {
                    return .failure(Problem(description: "the host listed more than \(Self.appLimit) apps in a round"))
                }
                pending.append(entry)
            }
        }
        buffer.removeFirst(start)
        guard buffer.count <= Self.lineLimit else { return .failure(Self.tooLong) }
        return .success(rounds)
    }

    private static let tooLong = Problem(description: "the host sent a line longer than \(lineLimit) bytes")

    /// An entry line (`FleetLines.line`), or nil when it is not one.
    package static func entry(_ object: [String: JSONValue]) -> FleetEntry? {
        func text(_ key: String) -> String? {
            object[key]?.stringValue.flatMap { $0.count <= textLimit ? $0 : nil }
        }
        func count(_ key: String) -> Int? {
            object[key]?.intValue.flatMap { $0 >= 0 && $0 <= Int64(Int32.max) ? Int($0) : nil }
        }
        func time(_ key: String) -> Double? {
            object[key]?.doubleValue.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        }
        guard let app = text("app"), let queue = text("queue"), let pid = count("pid"),
            let socket = text("socket"), let state = object["state"]?.stringValue,
            let presence = FleetEntry.Presence(rawValue: state)
        else { return nil }
        let published = PublishedQueue(
            app: app, queue: queue, pid: pid, started: time("started") ?? 0, socket: socket,
            viewers: count("viewers") ?? 0)
        var entry = FleetEntry(published: published)
        entry.presence = presence
        entry.controlAllowed = object["control"]?.boolValue
        entry.lastSeen = time("last_seen")
        let samples = object["throughput"]?.arrayValue ?? []
        entry.throughput = samples.suffix(FleetEntry.throughputSamples).map {
            $0.doubleValue.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
        }
        if let waiting = count("waiting"), let ready = count("ready"), let executing = count("executing"),
            let succeeded = count("succeeded"), let failed = count("failed"), let cancelled = count("cancelled")
        {
            entry.counts = StateCounts(
                waiting: waiting, ready: ready, executing: executing, succeeded: succeeded, failed: failed,
                cancelled: cancelled)
            entry.suspended = object["suspended"]?.boolValue ?? false
            entry.limit = object["limit"]?.intValue == -1 ? -1 : count("limit") ?? -1
        }
        return entry
    }
}
