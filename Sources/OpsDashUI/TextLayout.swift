// Text laid out for drawing: wrapping, control characters made visible, filter matches.

/// Lays spans out into lines of at most `width` columns, breaking between spans; a span wider
/// than a line is cut across lines at column boundaries (a wide character is never split).
func wrap(_ spans: [Span], separator: Span, width: Int) -> [[Span]] {
    guard width > 0 else { return [] }
    var lines: [[Span]] = []
    var current: [Span] = []
    var used = 0
    for whole in spans {
        for span in pieces(whole, width: width) {
            let spanWidth = span.width
            let needed = spanWidth + (current.isEmpty ? 0 : separator.width)
            if !current.isEmpty && used + needed > width {
                lines.append(current)
                current = []
                used = 0
            }
            if !current.isEmpty {
                current.append(separator)
                used += separator.width
            }
            current.append(span)
            used += spanWidth
        }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}

/// `span` cut into pieces at most `width` columns wide (itself when it fits).
private func pieces(_ span: Span, width: Int) -> [Span] {
    guard span.width > width else { return [span] }
    var result: [Span] = []
    var rest = Substring(displayable(span.text))
    while !rest.isEmpty {
        var (head, _) = DisplayWidth.prefix(String(rest), columns: width)
        if head.isEmpty { head = rest.prefix(1) }  // a wide character in a 1-column line
        result.append(Span(String(head), span.style))
        rest = rest.dropFirst(head.count)
    }
    return result
}

/// `text` with control characters (newlines, tabs, escapes) shown as `?`, so data from the
/// queue can never move the terminal's cursor or break a row.
func displayable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
}

/// The columns `text` takes when it is printable ASCII alone (a column a byte, nothing for
/// `displayable` to replace); nil for any other text.
func printableASCIIColumns(_ text: String) -> Int? {
    func columns(_ bytes: some Sequence<UInt8>) -> Int? {
        var count = 0
        for byte in bytes {
            guard byte >= 0x20 && byte < 0x7F else { return nil }
            count += 1
        }
        return count
    }
    return text.utf8.withContiguousStorageIfAvailable { columns($0) } ?? columns(text.utf8)
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}

/// `text` as spans in `style`, with each case-insensitive occurrence of `needle` (already
/// lowercased) underlined and bold: how rows show what the filter matched.
func highlighted(_ text: String, _ needle: String, _ style: CellStyle) -> [Span] {
    guard !needle.isEmpty, !text.isEmpty else { return [Span(text, style)] }
    let characters = Array(text)
    let target = needle.map { String($0) }
    guard target.count <= characters.count else { return [Span(text, style)] }
    let lowered = characters.map { $0.lowercased() }
    var spans: [Span] = []
    var plainStart = 0
    var index = 0
    while index + target.count <= characters.count {
        if lowered[index..<(index + target.count)].elementsEqual(target) {
            if plainStart < index { spans.append(Span(String(characters[plainStart..<index]), style)) }
            spans.append(Span(String(characters[index..<(index + target.count)]), Theme.match(style)))
            index += target.count
            plainStart = index
        } else {
            index += 1
        }
    }
    guard !spans.isEmpty else { return [Span(text, style)] }
    if plainStart < characters.count { spans.append(Span(String(characters[plainStart...]), style)) }
    return spans
}
