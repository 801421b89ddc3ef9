/// Test support for code built on OpsKit: `ManualClock` (re-exported from OpsKit, with
/// `checkNoScheduledWork()` for teardown), `ManualOperation`, `Recorder`, `ExecutionLog` (with `watch`),
/// `eventually`, `waitFor` and `recordingIllegalTransitions`.
@_exported import OpsKit
