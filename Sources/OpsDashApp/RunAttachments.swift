/// What `--record` and `--metrics-port` attach to a local scenario run.
struct RunAttachments {
    let recorder: LocalRecorder?
    let metrics: MetricsExport?

    /// Creates the recording and starts serving metrics, as the flags ask; nil after one line on
    /// stderr when either cannot start (exit status 2).
    init?(command: OpsdashCommand, run: ScenarioRun, queueName: String) {
        do {
            recorder = try command.record.map {
                try LocalRecorder(path: $0, monitor: run.monitor, queueName: queueName, overwrite: command.overwrite)
            }
            metrics = try command.metricsPort.map {
                try MetricsExport(port: $0, monitor: run.monitor, queueName: queueName)
            }
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return nil
        }
    }
}
