import Foundation
import OpsKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `TransferOperation`'s session delegate: moves the operation's `Progress` as bytes arrive
/// or leave, refuses a response whose status is not 2xx, and finishes the operation when the
/// task completes. Its session holds it (and the operation) until then.
final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Locking: `httpError` is set and read on the session's serial delegate queue only.
    private let operation: TransferOperation
    private var httpError: TransferError?

    init(operation: TransferOperation) {
        self.operation = operation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            httpError = .http(status: http.statusCode)
            return completionHandler(.cancel)
        }
        if case .download = operation.direction, response.expectedContentLength >= 0 {
            operation.progress.totalUnitCount = response.expectedContentLength
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // A download counts its body; an upload's body is the server's short answer.
        if case .download = operation.direction { operation.progress.completedUnitCount += Int64(data.count) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        operation.progress.completedUnitCount = totalBytesSent
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // A refused status cancels the task: the status is the error, not the cancellation.
        operation.complete(error: httpError ?? error)
    }
}
