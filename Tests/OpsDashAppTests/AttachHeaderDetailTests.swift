import Testing

@testable import OpsDashApp

/// What the attach header says while connected: the role, and why the picture does not follow
/// every change when the app is in a burst or the viewer resyncs.
@Suite struct AttachHeaderDetailTests {
    @Test func aLiveViewerShowsItsRole() {
        #expect(RemoteSource.connectedDetail(role: "control", resyncReason: nil) == "connected (control)")
    }

    @Test func aBurstSaysThePictureComesInSnapshots() {
        #expect(
            RemoteSource.connectedDetail(role: "read-only", resyncReason: "burst")
                == "connected (read-only), app too busy to stream: pictures only")
    }

    @Test func anotherResyncNamesItsReason() {
        #expect(
            RemoteSource.connectedDetail(role: "control", resyncReason: "lagged")
                == "connected (control), resyncing (lagged)")
    }
}
