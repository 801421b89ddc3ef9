import OpsMonitor

/// The styles the dashboard uses, in one place so widgets agree on colours.
enum Theme {
    static let title = CellStyle(bold: true)
    static let running = CellStyle(foreground: .black, background: .green, bold: true)
    static let paused = CellStyle(foreground: .yellow, bold: true, reverse: true)
    static let label = CellStyle(dim: true)
    static let columnHeader = CellStyle(bold: true, underline: true)
    static let selected = CellStyle(reverse: true)
    static let border = CellStyle(foreground: .cyan)
    static let footerKey = CellStyle(foreground: .cyan, bold: true)
    static let prompt = CellStyle(foreground: .yellow, bold: true, reverse: true)
    static let warning = CellStyle(foreground: .yellow)
    static let error = CellStyle(foreground: .red)

    /// The colour for an operation's state.
    static func state(_ lifecycle: Lifecycle, _ outcome: Outcome?) -> CellStyle {
        switch (lifecycle, outcome) {
        case (.waiting, _): CellStyle(foreground: .magenta)
        case (.ready, _): CellStyle(foreground: .yellow)
        case (.executing, _): CellStyle(foreground: .cyan, bold: true)
        case (.finished, .failed?): CellStyle(foreground: .red, bold: true)
        case (.finished, .cancelled?): CellStyle(foreground: .yellow, dim: true)
        case (.finished, _): CellStyle(foreground: .green)
        }
    }

    /// The bar colour for an operation's state.
    static func bar(_ lifecycle: Lifecycle, _ outcome: Outcome?) -> CellStyle {
        CellStyle(foreground: state(lifecycle, outcome).foreground)
    }

    /// `style` as it looks on the selected row.
    static func selecting(_ style: CellStyle, _ isSelected: Bool) -> CellStyle {
        guard isSelected else { return style }
        var result = style
        result.reverse = true
        return result
    }
}

extension OperationSnapshot {
    /// The state word shown in the table: waiting, ready, running, done, failed, cancelled.
    public var stateLabel: String {
        switch (lifecycle, outcome) {
        case (.waiting, _): "waiting"
        case (.ready, _): "ready"
        case (.executing, _): "running"
        case (.finished, .failed?): "failed"
        case (.finished, .cancelled?): "cancelled"
        case (.finished, _): "done"
        }
    }

    /// Whether the operation has finished, whatever the outcome.
    public var isFinished: Bool { lifecycle == .finished }
}
