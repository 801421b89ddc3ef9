// Recordings (docs/RECORDINGS.md): a whole file through RecordingReader (header, index of
// marks, keyframe checks), then a cursor played from the start to the end and one placed in
// the middle. Errors are RecordingErrors of one line; the picture at the end survives a
// keyframe round trip.
import FuzzSupport
import OpsMonitor
import OpsWire

#if canImport(Glibc)
import Glibc
#endif

let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
let path = "\(directory)/opsdash-fuzz-recording-\(getpid()).jsonl"
atexit { unlink("\(directory)/opsdash-fuzz-recording-\(getpid()).jsonl") }

fuzz { input in
    let file = fopen(path, "wb")
    check(file != nil, "cannot write \(path)")
    if input.count > 0 { _ = fwrite(input.baseAddress, 1, input.count, file) }
    fclose(file)
    let reader: RecordingReader
    do throws(RecordingError) {
        reader = try RecordingReader(path: path)
    } catch {
        check(!error.description.contains("\n"), "error is not one line: \(error.description)")
        return
    }
    do throws(RecordingError) {
        var cursor = try reader.cursorAtStart()
        while try cursor.step() {}
        checkKeyframeRoundTrip(cursor.builder.snapshot(), seq: cursor.seq, limits: RecordingReader.limits)
        var middle = try reader.cursor(at: reader.duration / 2)
        _ = try middle.advance(to: reader.duration)
        _ = middle.builder.snapshot()
    } catch {
        check(!error.description.contains("\n"), "error is not one line: \(error.description)")
    }
}
