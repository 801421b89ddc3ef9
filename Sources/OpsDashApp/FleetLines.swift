import Foundation
@_spi(OpsDashInternals) import OpsKitViewer
import OpsWire

/// `opsdash attach --list --headless`: one JSON line per published queue, from one `status`
/// round (docs/OPERATING.md, "Fleet list as JSON Lines").
enum FleetLines {
    /// How long the round waits for the apps' answers; an app that has not answered by then
    /// is listed with `"state":"connecting"` and no counts.
    static let answerTimeout: Duration = .seconds(2)

    /// The lines for `entries`, each ending in a newline.
    static func text(_ entries: [FleetEntry], host: String = ProcessInfo.processInfo.hostName) -> String {
        entries.map { line($0, host: host) }.joined()
    }

    /// One entry's line: `{"app","queue","pid","host","socket","started","state","control",
    /// "suspended","limit", the six counts,"viewers","throughput","last_seen"}`; `control` is
    /// null and the settings and counts are left out until the app answered. An app on a host
    /// of the hosts file (or `--list ssh://…`) ends with `"address"`: the `ssh://` target that
    /// attaches to it.
    static func line(_ entry: FleetEntry, host: String, address: String? = nil) -> String {
        var bytes: [UInt8] = []
        let published = entry.published
        JSONBytes.append(#"{"app":"#, to: &bytes)
        JSONBytes.appendString(published.app, to: &bytes)
        JSONBytes.append(#","queue":"#, to: &bytes)
        JSONBytes.appendString(published.queue, to: &bytes)
        JSONBytes.append(#","pid":"#, to: &bytes)
        JSONBytes.append(published.pid, to: &bytes)
        JSONBytes.append(#","host":"#, to: &bytes)
        JSONBytes.appendString(host, to: &bytes)
        JSONBytes.append(#","socket":"#, to: &bytes)
        JSONBytes.appendString(published.socket, to: &bytes)
        JSONBytes.append(#","started":"#, to: &bytes)
        JSONBytes.append(raw: seconds(published.started), to: &bytes)
        JSONBytes.append(#","state":"#, to: &bytes)
        JSONBytes.appendString(entry.presence.rawValue, to: &bytes)
        JSONBytes.append(#","control":"#, to: &bytes)
        if let control = entry.controlAllowed {
            JSONBytes.append(control, to: &bytes)
        } else {
            JSONBytes.append("null", to: &bytes)
        }
        if let counts = entry.counts {
            JSONBytes.append(#","suspended":"#, to: &bytes)
            JSONBytes.append(entry.suspended, to: &bytes)
            JSONBytes.append(#","limit":"#, to: &bytes)
            JSONBytes.append(entry.limit, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONLinesEncoder.appendCounts(counts, &bytes)
        }
        JSONBytes.append(#","viewers":"#, to: &bytes)
        JSONBytes.append(entry.viewers, to: &bytes)
        JSONBytes.append(#","throughput":["#, to: &bytes)
        JSONBytes.append(raw: entry.throughput.map(seconds).joined(separator: ","), to: &bytes)
        JSONBytes.append(#"],"last_seen":"#, to: &bytes)
        JSONBytes.append(raw: entry.lastSeen.map(seconds) ?? "null", to: &bytes)
        if let address {
            JSONBytes.append(#","address":"#, to: &bytes)
            JSONBytes.appendString(address, to: &bytes)
        }
        JSONBytes.append("}\n", to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A host that lists no apps: `{"host","address","state":"unreachable","error"}` with
    /// why (one line: ssh's last, e.g. "ssh: connect to host db-3 port 22: Connection refused
    /// (ssh exit 255)").
    static func unreachable(host: String, address: String, error: String) -> String {
        var bytes: [UInt8] = []
        JSONBytes.append(#"{"host":"#, to: &bytes)
        JSONBytes.appendString(host, to: &bytes)
        JSONBytes.append(#","address":"#, to: &bytes)
        JSONBytes.appendString(address, to: &bytes)
        JSONBytes.append(#","state":"unreachable","error":"#, to: &bytes)
        JSONBytes.appendString(error, to: &bytes)
        JSONBytes.append("}\n", to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A number with three decimals (milliseconds; a rate to a thousandth), 0 for one JSON cannot hold.
    private static func seconds(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3f", value) : "0"
    }
}
