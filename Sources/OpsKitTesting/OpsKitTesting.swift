/// Test support for code built on OpsKit: `ManualClock` (re-exported from OpsKit, with
/// `checkNoScheduledWork()` for teardown), `ManualOperation`, `Recorder`, `ExecutionLog` (with `watch`),
/// `eventually`, `waitFor`, `ManualClock.run(_:step:until:)` (drives a queue of clock-driven
/// operations deterministically) and `recordingIllegalTransitions`.
@_exported import OpsKit
