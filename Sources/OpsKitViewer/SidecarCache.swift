import Foundation

/// The published queues of a directory, read again only when the directory changed (a sidecar
/// written, replaced or removed changes its modification time) or changed in the last two
/// seconds: otherwise each round only checks that each app's process and socket are still
/// there, instead of reading and parsing every sidecar.
struct SidecarCache {
    private var modified: timespec?
    private var read: [PublishedQueue] = []

    /// What `PublishedQueue.list(in:)` would say now.
    mutating func list(in directory: String) -> [PublishedQueue] {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            modified = nil
            return []
        }
        let now = info.st_mtim
        // A change within the same tick of the file system's clock keeps the time: a directory
        // changed in the last two seconds is read again anyway (as git treats "racy" files).
        let settled = time(nil) - now.tv_sec >= 2
        if settled, let modified, modified.tv_sec == now.tv_sec, modified.tv_nsec == now.tv_nsec {
            return read.filter(\.isAlive)
        }
        modified = now
        read = PublishedQueue.list(in: directory)
        return read
    }
}
