import OpsDashUI

/// What ends a wait in the loop.
enum LoopEvent {
    /// A stop signal arrived.
    case stop(Int32)
    /// The terminal sent a key or a resize, or went away.
    case input(TerminalInput)
    /// The frame interval is over, or something changed and wants drawing.
    case frameDue
}
