import OpsKit

/// Records illegal state transitions instead of asserting, for the duration of `body`; returns
/// the reports in order. The previous handler is restored afterwards.
public func recordingIllegalTransitions(_ body: () -> Void) -> [String] {
    let recorder = Recorder()
    let previous = IllegalTransitionReporter.install { recorder.add($0) }
    body()
    IllegalTransitionReporter.install(previous)
    return recorder.all
}
