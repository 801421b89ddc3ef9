/// Makes text from files, paths and arguments safe to print as one terminal line.
///
/// Control characters (C0, DEL, C1), line and paragraph separators and the bidirectional
/// embedding, override and isolate characters become visible escapes (`\n`, `\t`, `\r`,
/// `\u{1B}`), so a name or path can neither break a one-line message in two nor send escape
/// sequences to the terminal. Everything else, backslashes included, is kept as is, so escaping
/// twice changes nothing.
package enum ControlCharacterEscaping {
    /// `text` with every control, separator and bidi-control scalar escaped.
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// True for C0 controls, DEL, C1 controls, U+2028/U+2029 and the bidi controls
    /// (U+061C, U+200E/F, U+202A…U+202E, U+2066…U+2069).
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
