import OpsMonitor

/// Renders the whole screen for `state` into a `width × height` buffer.
///
/// Cost depends on the visible rows: with the id sort and no filter, rows are read straight
/// from the snapshot; otherwise from the rows `reduce` cached for this snapshot version.
public func render(_ state: DashboardState) -> CellBuffer {
    var buffer = CellBuffer(width: 0, height: 0)
    render(state, into: &buffer, cache: nil)
    return buffer
}

/// Renders the whole screen for `state` into `buffer`, reusing its storage; with a `cache`,
/// table and log rows whose inputs didn't change are copied from earlier frames, and panes
/// whose inputs didn't change are copied from the frame on screen, or left as they are when
/// `buffer` is that frame (`RenderCache.beginFrame(inPlace:)`).
func render(_ state: DashboardState, into buffer: inout CellBuffer, cache: RenderCache?) {
    // In place, each region is blanked (its rows kept for the diff) before it is drawn; else
    // the whole buffer is blanked first.
    let inPlace = cache?.drawsInPlace(on: buffer, width: state.width, height: state.height) ?? false
    if !inPlace { buffer.reset(width: state.width, height: state.height) }
    func blank(_ area: Rect?) {
        guard inPlace, let cache, let area else { return }
        cache.blank(area, in: &buffer)
    }
    // Layout: the rectangle of every region.
    let layout = Layout(state)
    guard layout.fits else {
        blank(layout.screen)
        TooSmallView(glyphs: state.glyphs).render(into: &buffer, area: layout.screen)
        return
    }
    // A state changed outside `reduce` (tests, callers) still renders consistently; one that
    // `reduce` left is drawn as it is (a copy of the state retains and releases all it holds).
    guard isSettled(state) else {
        var settled = state
        refreshRows(&settled)
        followSelection(&settled)
        renderPanes(settled, layout: layout, into: &buffer, cache: cache, inPlace: inPlace)
        return
    }
    renderPanes(state, layout: layout, into: &buffer, cache: cache, inPlace: inPlace)
}

/// The panes of `layout`, for a state whose rows and selection are settled (`isSettled`),
/// each blanked first when drawn `inPlace`.
private func renderPanes(
    _ state: borrowing DashboardState, layout: Layout, into buffer: inout CellBuffer, cache: RenderCache?,
    inPlace: Bool
) {
    func blank(_ area: Rect?) {
        guard inPlace, let cache, let area else { return }
        cache.blank(area, in: &buffer)
    }
    // Each widget takes from the state what it shows in its rectangle, then draws it there.
    blank(layout.header)
    HeaderView(state).render(into: &buffer, area: layout.header, cache: cache)
    if let history = layout.history {
        blank(history)
        HistoryView(state).render(into: &buffer, area: history)
    }
    if state.showDependencies {
        blank(layout.main)
        TreeView(state, rows: layout.visibleRows).render(into: &buffer, area: layout.main)
    } else {
        renderTable(state, rows: layout.visibleRows, into: &buffer, area: layout.main, cache: cache)
    }
    if let details = layout.details {
        blank(details)
        DetailsView(state).render(into: &buffer, area: details)
    }
    if let log = layout.log {
        renderLog(state, lines: log.height - 1, into: &buffer, area: log, cache: cache)
    }
    blank(layout.footer)
    FooterView(state, cache: cache).render(into: &buffer, area: layout.footer, cache: cache)
    if let help = layout.help {
        blank(help)
        HelpOverlay(state, scroll: state.helpScroll)
            .render(into: &buffer, area: help)
        cache?.forgetPlacement()
    }
}

/// The table in `area`: as the frame on screen shows it when its pane key is the one it was
/// drawn from there, else drawn (keeping its key when it has one).
private func renderTable(
    _ state: DashboardState, rows: Int, into buffer: inout CellBuffer, area: Rect, cache: RenderCache?
) {
    let key = cache == nil ? nil : TablePaneKey(state, rows: rows)
    if let cache, let key, cache.copyTablePane(key: key, area: area, into: &buffer) { return }
    // Not blanked here: the table blanks the rows it draws (drawing in place, a row the screen
    // shows already is left alone).
    let table = TableView(state, rows: rows)
    table.render(into: &buffer, area: area, cache: cache)
    if let cache, let key, table.rows.allSatisfy({ $0.lifecycle == .finished }) {
        cache.drewTablePane(key: key, area: area)
    }
}

/// The event log in `area`: as the frame on screen shows it when it shows the same entries as
/// there, else drawn.
private func renderLog(
    _ state: DashboardState, lines: Int, into buffer: inout CellBuffer, area: Rect, cache: RenderCache?
) {
    let key = state.showCommandLog ? nil : LogPaneKey(log: state.snapshot.sharedLog, lines: lines, glyphs: state.glyphs)
    if let cache, let key, cache.copyLogPane(key: key, area: area, into: &buffer) { return }
    cache?.blank(area, in: &buffer)
    LogView(state, lines: lines).render(into: &buffer, area: area, cache: cache)
    if let cache, let key { cache.drewLogPane(key: key, area: area) }
}
