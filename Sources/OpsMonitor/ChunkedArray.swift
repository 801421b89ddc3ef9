import Synchronization

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
    /// Elements per chunk. The store's first change to a chunk a picture still holds copies it
    /// (a dashboard hands its picture back before the store changes, so its frames copy none;
    /// a publisher's or a test's kept picture does), and the dashboard skips drawing table rows
    /// whose chunk's stamp did not change: 128, not 512, makes such a copy a quarter and lets
    /// the rows of a young queue's finished operations be skipped long before 512 operations
    /// have finished, for four times as many chunks (a reference and a stamp each).
    @inlinable public static var chunkSize: Int { 128 }

    @usableFromInline var chunks: [[Element]] = []
    /// Each chunk's stamp: a number no other change to any chunk of any array was given, set
    /// anew by every change to the chunk. Equal stamps at one index of two arrays mean equal
    /// chunks, whatever became of the storage in between (see `chunkStamps`).
    @usableFromInline var stamps: [UInt64] = []
    /// Each element's stamp, chunk by chunk as the elements: the stamp its chunk was given by
    /// the last change to that element (so equal stamps at one position of two arrays mean
    /// equal elements there, however the rest of the chunk changed; see `elementStamps(in:)`).
    @usableFromInline var elementStamps: [[UInt64]] = []
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
        set {
            chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue
            restamp(position)
        }
    }

    /// Gives the element at `position`, and its chunk, a new stamp (it changed).
    @inlinable mutating func restamp(_ position: Int) {
        let stamp = ChunkStamp.next()
        stamps[position / Self.chunkSize] = stamp
        elementStamps[position / Self.chunkSize][position % Self.chunkSize] = stamp
    }

    /// Changes the element at `position` in place (no copy of the element, and a shared chunk is
    /// duplicated once); returns what `body` returns.
    public mutating func update<Result>(at position: Int, _ body: (inout Element) -> Result) -> Result {
        restamp(position)
        return body(&chunks[position / Self.chunkSize][position % Self.chunkSize])
    }

    /// `body`'s answer for the element at `position`, read where it is stored (the element is
    /// not copied, so its references are neither retained nor released).
    @inlinable package func withElement<Result>(at position: Int, _ body: (Element) -> Result) -> Result {
        chunks[position / Self.chunkSize].withUnsafeBufferPointer { body($0[position % Self.chunkSize]) }
    }

    /// The number of chunks (the last one may be partly filled).
    @inlinable package var chunkCount: Int { chunks.count }

    /// Every chunk's stamp, in chunk order: kept by a reader (O(1), shared), it tells which
    /// chunks of a later copy changed since (`stamp != kept[index]`) without keeping the
    /// chunks themselves alive. A reader that kept the chunks would make the store's next
    /// change to each copy all of its rows.
    @inlinable package var chunkStamps: [UInt64] { stamps }

    /// The stamps of the elements at `positions` (inside the array), in order: kept by a reader,
    /// they tell whether those elements changed since (equal stamps at a position: the same
    /// element, unchanged), whatever else changed in their chunks, without keeping anything of
    /// the array alive.
    package func elementStamps(in positions: Range<Int>) -> [UInt64] {
        var kept: [UInt64] = []
        kept.reserveCapacity(positions.count)
        var position = positions.lowerBound
        while position < positions.upperBound {
            let chunk = position / Self.chunkSize
            let end = Swift.min(positions.upperBound, (chunk + 1) * Self.chunkSize)
            let offset = chunk * Self.chunkSize
            kept.append(contentsOf: elementStamps[chunk][(position - offset)..<(end - offset)])
            position = end
        }
        return kept
    }

    /// Where chunk `index`'s elements are stored (for tests: an unchanged address across a
    /// change means the chunk was changed in place, not copied); nil past the last chunk.
    package func chunkAddress(_ index: Int) -> UnsafeRawPointer? {
        guard index < chunks.count else { return nil }
        return chunks[index].withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    /// Adds an element at the end (moved in when the caller gives it up: inlined, so that the
    /// element goes from the caller into the chunk without a copy and a destroy).
    @inline(__always)
    public mutating func append(_ element: consuming Element) {
        if count % Self.chunkSize == 0 { startChunk() }
        chunks[chunks.count - 1].append(consume element)
        let stamp = ChunkStamp.next()
        stamps[stamps.count - 1] = stamp
        elementStamps[elementStamps.count - 1].append(stamp)
        count += 1
    }

    /// Adds an empty chunk, with room for a whole chunk, after the last.
    private mutating func startChunk() {
        var chunk: [Element] = []
        chunk.reserveCapacity(Self.chunkSize)
        chunks.append(chunk)
        stamps.append(0)
        var elementStamps: [UInt64] = []
        elementStamps.reserveCapacity(Self.chunkSize)
        self.elementStamps.append(elementStamps)
    }
}

/// The source of `ChunkedArray`'s chunk stamps: one counter for every array of the process, so
/// two arrays that went apart from one copy never give the same stamp to different elements.
@usableFromInline enum ChunkStamp {
    @usableFromInline static let counter = Atomic<UInt64>(0)

    /// A stamp no chunk had before.
    @inlinable static func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
extension ChunkedArray: Equatable where Element: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}
