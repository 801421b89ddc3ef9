@_spi(OpsDashInternals) import OpsKitViewer
import Testing

@testable import OpsDashApp

/// The one line `opsdash attach NAME` says when NAME matches several published queues: what
/// tells them apart, never a hint the user already followed.
@Suite struct AttachAmbiguityMessageTests {
    private func queue(_ app: String, _ name: String, pid: Int) -> PublishedQueue {
        PublishedQueue(
            app: app, queue: name, pid: pid, started: Double(pid), socket: "/run/o/\(app).\(name).\(pid).sock",
            viewers: 0)
    }

    @Test func queuesOfDifferentAppsAreNamedByAppAndQueue() {
        let matches = [queue("ingest", "images", pid: 1), queue("thumbs", "images", pid: 2)]
        #expect(
            AttachCommand.ambiguity(of: "images", among: matches)
                == "2 published queues match images: name one as app/queue: ingest/images or thumbs/images")
    }

    /// In pid order, the socket paths in the same order, whatever order the directory gave.
    @Test func instancesOfOneAppAreToldApartByPidAndSocketPath() {
        let matches = [queue("ingest", "images", pid: 11), queue("ingest", "images", pid: 10)]
        #expect(
            AttachCommand.ambiguity(of: "ingest/images", among: matches)
                == "2 published queues match ingest/images (pids 10, 11): attach by socket path: "
                + "/run/o/ingest.images.10.sock or /run/o/ingest.images.11.sock")
    }

    @Test func pastThreeSocketPathsTheRestIsCountedOnTheSameLine() {
        let matches = [4, 2, 5, 1, 3].map { queue("ingest", "images", pid: $0) }
        let message = AttachCommand.ambiguity(of: "ingest", among: matches)
        #expect(
            message
                == "5 published queues match ingest (pids 1, 2, 3, 4, 5): attach by socket path: "
                + "/run/o/ingest.images.1.sock, /run/o/ingest.images.2.sock, /run/o/ingest.images.3.sock "
                + "and 2 more (opsdash attach --list)")
        #expect(!message.contains("\n"))
    }

    @Test func withoutATargetTheHintNamesSocketPathsOnlyWhenANameIsNotEnough() {
        let distinct = [queue("ingest", "images", pid: 1), queue("thumbs", "images", pid: 2)]
        #expect(AttachCommand.severalPublished(distinct) == "2 published queues: name one (opsdash attach NAME)")
        let twice = [queue("ingest", "images", pid: 1), queue("ingest", "images", pid: 2)]
        #expect(
            AttachCommand.severalPublished(twice)
                == "2 published queues: ingest/images runs as pids 1, 2: attach one by socket path: "
                + "opsdash attach /run/o/ingest.images.1.sock or /run/o/ingest.images.2.sock")
        let mixed = twice + [queue("thumbs", "small", pid: 3)]
        #expect(
            AttachCommand.severalPublished(mixed)
                == "3 published queues: ingest/images runs as pids 1, 2: attach one by socket path: "
                + "opsdash attach /run/o/ingest.images.1.sock or /run/o/ingest.images.2.sock; "
                + "name any other (opsdash attach NAME)")
    }

    /// A name nothing matches: what is published (app/queue, pid, socket path), or that nothing is.
    @Test func anUnknownNameListsWhatIsPublishedOrThatNothingIs() {
        #expect(
            AttachCommand.notFound("nosuch", among: [], in: "/run/o")
                == "no published queue named nosuch in /run/o: none is published there")
        let published = [queue("thumbs", "small", pid: 3), queue("ingest", "images", pid: 1)]
        #expect(
            AttachCommand.notFound("nosuch", among: published, in: "/run/o")
                == "no published queue named nosuch in /run/o; published: "
                + "ingest/images (pid 1, /run/o/ingest.images.1.sock), thumbs/small (pid 3, /run/o/thumbs.small.3.sock)"
        )
    }
}
