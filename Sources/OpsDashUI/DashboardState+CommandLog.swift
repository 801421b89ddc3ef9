import OpsMonitor

/// Where `keepCommands(of:)` stopped reading a picture's log: its newest entry and how many
/// entries at that entry's time it read. The next picture's log (the same log, appended to and
/// dropped from the front) holds them at its end, followed by the entries not read yet.
struct CommandLogScan: Sendable {
    /// The newest entry read.
    var last: LogEntry
    /// Entries read at `last.time`, `last` included.
    var atLastTime: Int

    /// The mark after reading all of `log`; nil for an empty log.
    init?(after log: SharedLog) {
        guard let last = log.last else { return nil }
        var index = log.endIndex - 1
        while index > log.startIndex, log[index - 1].time == last.time { index -= 1 }
        self.last = last
        atLastTime = log.endIndex - index
    }

    /// Where the entries of `log` not read yet start, when `log` is the log read on: the entries
    /// read at `last.time` are all still in it (an older entry is before them) and the last of
    /// them is `last`. Nil when that does not hold (another log, or its front dropped into them):
    /// the caller reads the log as if new. Reads only the entries from `last.time` on.
    func unread(in log: SharedLog) -> Int? {
        let atTime = log.startOfTail(from: last.time)
        let read = atTime + atLastTime
        guard atTime > log.startIndex, read <= log.endIndex, log[read - 1] == last else { return nil }
        return read
    }
}

extension DashboardState {
    /// Adds to `commandLog` the entries of `next` it has not seen: those newer than its newest,
    /// and at the same instant past those it has. A picture from earlier (a replay sought back, an
    /// app restarted) starts it again. Reads only the entries added since the last picture when
    /// `next`'s log continues the one read then (`CommandLogScan`), else O(log), reading each
    /// entry's kind (and time) in place: only the entries kept are copied (copying every entry of
    /// a busy log, its strings retained and released, was a tenth of a busy frame; walking its
    /// 500 entries a frame to find the new ones, a twentieth of the in-situ loop).
    mutating func keepCommands(of next: QueueSnapshot) {
        if next.time < snapshot.time {
            commandLog = []
            commandScan = nil
        }
        let log = next.sharedLog
        defer { commandScan = CommandLogScan(after: log) }
        if let start = commandScan?.unread(in: log) {
            for index in log.positions(in: start..<log.endIndex, where: Self.isCommand) {
                commandLog.append(log[index])
            }
            trimCommandLog()
            return
        }
        guard let newest = commandLog.last?.time else {
            commandLog = log.lastPositions(Self.commandLogLimit, where: Self.isCommand).map { log[$0] }
            return
        }
        var seenAtNewest = commandLog.reversed().prefix { $0.time == newest }.count
        // The log is in time order: only its tail from `newest` on can hold entries not seen,
        // so a frame reads the entries since the last picture, not all of them.
        for index in log.positions(in: log.startOfTail(from: newest)..<log.endIndex, where: Self.isCommand) {
            if log[index].time == newest && seenAtNewest > 0 {
                seenAtNewest -= 1
                continue
            }
            commandLog.append(log[index])
        }
        trimCommandLog()
    }

    /// Drops the oldest commands past `commandLogLimit`.
    private mutating func trimCommandLog() {
        if commandLog.count > Self.commandLogLimit { commandLog.removeFirst(commandLog.count - Self.commandLogLimit) }
    }
}
