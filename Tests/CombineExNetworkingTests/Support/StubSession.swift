import CombineExCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A session that performs no I/O: its data tasks report a fixed result, either when resumed
/// (synchronously, on the resuming thread) or when the test calls ``completeTasks(_:)``. It
/// records what the publisher asks of it, to check when tasks are created, resumed and
/// cancelled, and the result mapping for results a real server cannot produce.
final class StubSession: URLSession, @unchecked Sendable {
  // @unchecked Sendable: everything it adds is in `LockedBox`es.
  /// A result as a completion handler receives it.
  struct Outcome: @unchecked Sendable {
    // @unchecked Sendable: immutable; the error is only read.
    var data: Data?
    var response: URLResponse?
    var error: (any Error)?
  }

  typealias Handler = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

  /// What happened, in order: `dataTask`, `resume`, `cancel`.
  private let recorded = LockedBox<[String]>([])
  private let handlers = LockedBox<[Handler]>([])
  /// Reported on every resume when set; otherwise only ``completeTasks(_:)`` reports.
  private let onResume = LockedBox<Outcome?>(nil)

  /// A stub whose tasks report `outcome` when resumed (`nil`: only when told to).
  static func make(answeringOnResume outcome: Outcome? = nil) -> StubSession {
    let session = StubSession(configuration: .ephemeral)
    session.onResume.withLock { $0 = outcome }
    return session
  }

  var events: [String] { recorded.withLock { $0 } }

  func record(_ event: String) {
    recorded.withLock { $0.append(event) }
  }

  /// Calls every completion handler received so far with `outcome`.
  func completeTasks(_ outcome: Outcome) {
    for handler in handlers.withLock({ $0 }) {
      handler(outcome.data, outcome.response, outcome.error)
    }
  }

  /// Reports the resume-time outcome, if there is one, to `handler`.
  func resumed(_ handler: Handler) {
    record("resume")
    if let outcome = onResume.withLock({ $0 }) {
      handler(outcome.data, outcome.response, outcome.error)
    }
  }

  override func dataTask(
    with request: URLRequest, completionHandler: @escaping Handler
  ) -> URLSessionDataTask {
    record("dataTask")
    handlers.withLock { $0.append(completionHandler) }
    return StubDataTask(session: self, handler: completionHandler)
  }
}

/// A data task of ``StubSession``: resuming reports to the session, which may answer at once.
final class StubDataTask: URLSessionDataTask, @unchecked Sendable {
  // @unchecked Sendable: both properties are set once in `init`.
  private let stub: StubSession
  private let handler: StubSession.Handler

  init(session: StubSession, handler: @escaping StubSession.Handler) {
    stub = session
    self.handler = handler
    super.init()
  }

  override func resume() {
    stub.resumed(handler)
  }

  override func cancel() {
    stub.record("cancel")
  }
}

extension StubSession.Outcome {
  /// A response with data.
  static func success(_ text: String, status: Int = 200) -> Self {
    let url = URL(string: "http://stub.invalid/")!
    let response = HTTPURLResponse(
      url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)
    return Self(data: Data(text.utf8), response: response, error: nil)
  }

  /// A failure.
  static func failure(_ error: any Error) -> Self {
    Self(data: nil, response: nil, error: error)
  }
}
