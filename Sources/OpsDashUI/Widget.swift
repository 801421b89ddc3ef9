/// A part of the screen (ratatui's widget): made from the dashboard state, it takes what it
/// shows, then draws it into the rectangle the layout gave it, and nowhere else.
///
/// The header, the table or the dependency tree, the details pane, the log, the footer, the
/// help overlay and the too-small notice are widgets; `render(_:into:cache:)` places them.
protocol Widget {
    /// Draws into `area` of `buffer`, leaving every cell outside it as it was.
    func render(into buffer: inout CellBuffer, area: Rect)
}

extension DetailsView: Widget {}
extension FooterView: Widget {}
extension TreeView: Widget {}
extension HelpOverlay: Widget {}
extension HistoryView: Widget {}
extension TooSmallView: Widget {}

extension TableView: Widget {
    /// Draws every row (no cache of earlier frames).
    func render(into buffer: inout CellBuffer, area: Rect) {
        render(into: &buffer, area: area, cache: nil)
    }
}

extension HeaderView: Widget {
    /// Draws every line (no cache of earlier frames).
    func render(into buffer: inout CellBuffer, area: Rect) {
        render(into: &buffer, area: area, cache: nil)
    }
}

extension LogView: Widget {
    /// Draws every line (no cache of earlier frames).
    func render(into buffer: inout CellBuffer, area: Rect) {
        render(into: &buffer, area: area, cache: nil)
    }
}
