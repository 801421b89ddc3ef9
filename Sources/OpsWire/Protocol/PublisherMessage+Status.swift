import OpsMonitor

extension PublisherMessage {
    /// What a `status` line says: the queue's counts and settings at `time` (the app's clock)
    /// and its streaming viewers; no operation, so it costs the same for any queue size.
    package struct Status: Sendable, Equatable {
        /// The `id` of the `status` request it answers.
        package var request: RequestID?
        package var time: Duration
        package var suspended: Bool
        package var limit: Int
        package var counts: StateCounts
        /// Viewers streaming the queue (summary-only connections not counted).
        package var viewers: Int

        package init(
            request: RequestID? = nil, time: Duration, suspended: Bool, limit: Int, counts: StateCounts, viewers: Int
        ) {
            self.request = request
            self.time = time
            self.suspended = suspended
            self.limit = limit
            self.counts = counts
            self.viewers = viewers
        }

        /// Reads a peer's `status` line: every count and the viewers at least 0, the limit
        /// at least -1 (`OperationQueue`'s "no limit").
        init(_ fields: EventFields, request: RequestID?) throws(EventLineError) {
            let counts = try fields.counts()
            for (name, value) in [
                ("waiting", counts.waiting), ("ready", counts.ready), ("executing", counts.executing),
                ("succeeded", counts.succeeded), ("failed", counts.failed), ("cancelled", counts.cancelled),
            ] where value < 0 {
                throw fields.error(name, "must not be negative")
            }
            let limit = try fields.int("limit")
            guard limit >= -1 else { throw fields.error("limit", "must be -1 or more") }
            let viewers = try fields.int("viewers")
            guard viewers >= 0 else { throw fields.error("viewers", "must not be negative") }
            self.init(
                request: request, time: try fields.time("t"), suspended: try fields.bool("suspended"), limit: limit,
                counts: counts, viewers: viewers)
        }

        func append(to bytes: inout [UInt8]) {
            JSONBytes.append(#"{"t":"#, to: &bytes)
            JSONBytes.appendTime(time, to: &bytes)
            JSONBytes.append(#","event":"status""#, to: &bytes)
            request?.appendField(to: &bytes)
            JSONBytes.append(#","suspended":"#, to: &bytes)
            JSONBytes.append(suspended, to: &bytes)
            JSONBytes.append(#","limit":"#, to: &bytes)
            JSONBytes.append(limit, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONLinesEncoder.appendCounts(counts, &bytes)
            JSONBytes.append(#","viewers":"#, to: &bytes)
            JSONBytes.append(viewers, to: &bytes)
            JSONBytes.append("}\n", to: &bytes)
        }
    }
}
