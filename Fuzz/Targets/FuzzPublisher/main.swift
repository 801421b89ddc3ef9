// Commands as the publisher reads them (a hostile viewer, docs/PROTOCOL.md): each input line
// goes to PublisherCore.receive for one connection (the first byte picks a local or a TCP
// peer), commands it asks to carry out are reported done, and the publisher flushes. Every
// line it writes is one JSON object the viewer's decoder reads.
import FuzzSupport
import NIOCore
@_spi(OpsDashInternals) import OpsKitPublisher
import OpsMonitor
import OpsWire

let identity = PublisherCore.Identity(app: "fuzz", queue: "main", pid: 1, epoch: "e1")
let access = PublisherCore.Access(allowControl: true, readToken: "read-token", controlToken: "control-token")

fuzz { input in
    var publisher = PublisherCore(identity: identity, access: access)
    let peer: PublisherCore.Peer =
        input.first.map { $0 & 1 == 0 } ?? true ? .local(uid: 1000) : .network(address: "127.0.0.1:5000")
    var now = Duration.zero
    publisher.connect(1, peer: peer, now: now)
    publisher.publish([], snapshot: nil, monitorTime: now)
    var outputs: [PublisherCore.Output] = []
    for line in lines(UnsafeRawBufferPointer(rebasing: input.dropFirst())) {
        now += .milliseconds(10)
        let answer = publisher.receive(1, line: line, now: now)
        for case .execute(let id, let command, let request) in answer {
            outputs += publisher.commandDone(id, command, request: request)
        }
        outputs += answer
        outputs += publisher.flush(now: now)
    }
    outputs += publisher.shutdown(reason: "fuzz")
    for output in outputs {
        switch output {
        case .send(_, let buffers), .sendLaterAndClose(_, let buffers, _):
            for buffer in buffers { checkLines(buffer) }
        // A status request is answered by the app's engine from its monitor (PublisherMessage
        // is package API, out of this package's reach); its line's encoding is OpsWire's tests'.
        case .close, .execute, .status: break
        }
    }
}

func checkLines(_ buffer: ByteBuffer) {
    let bytes = buffer.readableBytesView
    check(bytes.last == UInt8(ascii: "\n"), "buffer does not end a line")
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
        do {
            _ = try JSONLinesDecoder(maximumLineLength: .max - 2).decode(bytes: line)
        } catch {
            check(false, "publisher wrote an unreadable line (\(error)): \(String(decoding: line, as: UTF8.self))")
        }
    }
}
