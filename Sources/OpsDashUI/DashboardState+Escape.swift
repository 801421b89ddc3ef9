extension DashboardState {
    /// Whether Esc would change nothing: no help, prompt, edit, pane, filter or failed-only
    /// to close (what the fleet list's dashboard takes as "back to the list").
    package var escapeClosesNothing: Bool {
        !showHelp && prompt == nil && !isEditingFilter && !isEditingSearch && !showDetails && !showDependencies
            && filter.isEmpty && !failedOnly
    }
}
