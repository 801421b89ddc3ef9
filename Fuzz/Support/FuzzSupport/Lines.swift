/// The input's lines (split at "\n", the newline kept), as a peer would send them one by one.
public func lines(_ data: UnsafeRawBufferPointer) -> [ArraySlice<UInt8>] {
    let bytes = Array(data)
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
        result.append(bytes[start...index])
        start = index + 1
    }
    if start < bytes.count { result.append(bytes[start...]) }
    return result
}
