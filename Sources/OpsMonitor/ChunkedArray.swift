/// An array stored in fixed-size chunks, so that a copy shares chunks with the original and
/// changing one element after a copy duplicates one chunk, not the whole array.
///
/// This is what lets `QueueMonitor` hand out a snapshot of 100,000 operations every frame in
/// O(number of chunks) and keep updating its store at O(chunk size) per first touch of a chunk.
///
/// Reading is `@inlinable`, so code in other modules (the dashboard walks every operation of a
/// snapshot to sort and filter) gets a specialised, direct element access instead of a generic
/// call with a metadata lookup per element.
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// Elements per chunk. The store's first change to a chunk a picture still shares copies
    /// it (the dashboard holds the last picture, so that is every frame), and the dashboard
    /// skips drawing table rows whose chunk the store has not touched: 128, not 512, makes that
    /// copy a quarter and lets the rows of a young queue's finished operations be skipped long
    /// before 512 operations have finished, for four times as many chunks (a reference each).
    @inlinable public static var chunkSize: Int { 128 }

    @usableFromInline var chunks: [[Element]] = []
    public private(set) var count = 0

    public init() {}

    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public subscript(position: Int) -> Element {
        // Read in place: `operations[mid].id` reads one field without copying the element
        // (an operation's strings and arrays retained and released).
        _read { yield chunks[position / Self.chunkSize][position % Self.chunkSize] }
        set { chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue }
    }

    /// Changes the element at `position` in place (no copy of the element, and a shared chunk is
    /// duplicated once); returns what `body` returns.
    public mutating func update<Result>(at position: Int, _ body: (inout Element) -> Result) -> Result {
        body(&chunks[position / Self.chunkSize][position % Self.chunkSize])
    }

    /// `body`'s answer for the element at `position`, read where it is stored (the element is
    /// not copied, so its references are neither retained nor released).
    @inlinable package func withElement<Result>(at position: Int, _ body: (Element) -> Result) -> Result {
        chunks[position / Self.chunkSize].withUnsafeBufferPointer { body($0[position % Self.chunkSize]) }
    }

    /// The number of chunks (the last one may be partly filled).
    @inlinable package var chunkCount: Int { chunks.count }

    /// Whether chunk `index` is the very same storage in `self` and in `other`, so holds the same
    /// elements: a chunk is changed only after it is copied once it is shared, so an unchanged
    /// chunk of a copy is its original's. Both arrays are alive here, so equal addresses are one
    /// buffer, never a freed one reused. O(1).
    @inlinable package func sharesChunk(_ index: Int, with other: Self) -> Bool {
        guard index < chunks.count, index < other.chunks.count else { return false }
        let mine = chunks[index].withUnsafeBufferPointer { $0 }
        let theirs = other.chunks[index].withUnsafeBufferPointer { $0 }
        return mine.count == theirs.count && mine.count > 0 && mine.baseAddress == theirs.baseAddress
    }

    /// Adds an element at the end (moved in when the caller gives it up).
    public mutating func append(_ element: __owned Element) {
        if count % Self.chunkSize == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
extension ChunkedArray: Equatable where Element: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}
