import OpsMonitor

/// Renders the whole screen for `state` into a `width × height` buffer.
///
/// Cost depends on the visible rows: with the id sort and no filter, rows are read straight
/// from the snapshot; otherwise from the rows `reduce` cached for this snapshot version.
public func render(_ state: DashboardState) -> CellBuffer {
    var buffer = CellBuffer(width: state.width, height: state.height)
    let layout = Layout(state)
    guard layout.fits else {
        renderTooSmall(into: &buffer, glyphs: state.glyphs)
        return buffer
    }
    // A state changed outside `reduce` (tests, callers) still renders consistently.
    var state = state
    refreshRows(&state)
    followSelection(&state)

    HeaderView(state: state).render(into: &buffer, y: layout.header.y)
    if state.showDependencies {
        TreeView(state: state).render(into: &buffer, band: layout.main)
    } else {
        TableView(state: state).render(into: &buffer, band: layout.main)
    }
    if let details = layout.details {
        DetailsView(state: state).render(into: &buffer, band: details)
    }
    if let log = layout.log { LogView(state: state).render(into: &buffer, band: log) }
    FooterView(state: state).render(into: &buffer, y: layout.footer.y)
    if state.showHelp { HelpOverlay(glyphs: state.glyphs).render(into: &buffer) }
    return buffer
}

/// The one line shown when the terminal is below the minimum size, clipped to the width.
func tooSmallMessage(glyphs: GlyphSet) -> String {
    let times = glyphs == .unicode ? "×" : "x"
    return "enlarge the terminal (needs \(Layout.minimumWidth)\(times)\(Layout.minimumHeight))"
}

private func renderTooSmall(into buffer: inout CellBuffer, glyphs: GlyphSet) {
    guard buffer.width > 0, buffer.height > 0 else { return }
    buffer.write(tooSmallMessage(glyphs: glyphs), x: 0, y: 0, style: Theme.warning)
}
