@_spi(OpsDashInternals) import OpsKitViewer

/// An `ssh://` attach that never reached the app (a failed login, a host that is down, no such
/// queue there): said as one line, "cannot attach to ssh://db-3/images: Permission denied
/// (publickey). (ssh exit 255)", and exit 2, before a screen opens or a line is printed.
enum SSHAttachFailure {
    /// How long the dashboard waits for an `ssh://` target's first answer before the screen
    /// opens (`ssh` connects in at most 10 s: its `ConnectTimeout`).
    static let firstAnswerTimeout: Duration = .seconds(15)

    /// The line to say when `viewer` went to an `ssh://` target and ended without a welcome.
    static func message(_ viewer: RemoteViewer) -> String? {
        guard case .ssh = viewer.target, viewer.isFinished, viewer.status.welcome == nil else { return nil }
        return "opsdash: cannot attach to \(viewer.target): \(viewer.endReason.reason ?? "ssh ended")"
    }
}
