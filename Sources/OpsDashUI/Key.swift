/// A key press, as the terminal backend decodes it.
public enum Key: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab
    /// A control key, by its letter: `.control("l")` is Ctrl-L.
    case control(Character)
}
