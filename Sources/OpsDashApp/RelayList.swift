import Foundation
@_spi(OpsDashInternals) import OpsKitViewer

/// `opsdash relay --list`: what the fleet list runs on a remote host over `ssh` (one `ssh` per
/// host, however many apps it publishes). Watches this host's published queues as the local
/// fleet list does (`FleetWatcher`: one summary connection per app, a `status` round a
/// second) and writes each round to standard output: one `opsdash attach --list --headless`
/// line per queue (`FleetLines`), then `{"end":"round","time":SECONDS,"apps":N}` with this
/// host's wall time (the reader measures "last seen" against it, not against its own clock).
/// Apps that start or stop publishing join or leave the next round. Ends when standard input
/// ends (the viewer went away) or a write fails.
enum RelayList {
    /// The line that ends a round of `apps` lines, written at wall time `time`.
    static func roundEnd(apps: Int, time: Double) -> String {
        "{\"end\":\"round\",\"time\":\(String(format: "%.3f", time.isFinite ? time : 0)),\"apps\":\(apps)}\n"
    }

    /// Runs until `input` ends or writing to `output` fails; the exit status.
    static func run(
        directory: String, input: Int32 = 0, output: Int32 = 1, interval: Duration = FleetWatcher.defaultInterval
    ) -> ExitStatus {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            StandardStreams.error("opsdash: pipe: \(String(cString: strerror(errno)))")
            return .someFailed
        }
        // The pipe stays open until the process ends: the watcher's thread may still say a
        // change after `stop`.
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        let changed = ends[1]
        let watcher = FleetWatcher(directory: directory, interval: interval)
        watcher.start { _ = write(changed, [UInt8(1)], 1) }
        defer { watcher.stop() }
        let host = ProcessInfo.processInfo.hostName
        var shown: UInt64 = 0
        var scratch = [UInt8](repeating: 0, count: 4_096)
        while true {
            var descriptors = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return .someFailed }
            if descriptors[0].revents != 0 {
                // The viewer sends nothing: bytes are dropped, the end of input ends the relay.
                let count = scratch.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return .success }
            }
            if descriptors[1].revents != 0 {
                _ = scratch.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            }
            let (entries, version) = watcher.entries()
            guard version != shown else { continue }
            shown = version
            let text =
                FleetLines.text(entries, host: host)
                + roundEnd(apps: entries.count, time: Date().timeIntervalSince1970)
            guard StandardStreams.write(text, to: output) else { return .someFailed }
        }
    }
}
