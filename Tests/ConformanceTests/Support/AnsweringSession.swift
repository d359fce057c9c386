import CombineEx
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `URLSession` without I/O, for the conformance suite's data task publisher: its data tasks
/// answer with the first result the harness gives the session (``answer(_:)``), whenever they
/// are resumed, before or after that result came. As a real session's, each task calls its
/// completion handler at most once and then lets go of it, and a cancelled task answers
/// `URLError(.cancelled)`.
final class AnsweringSession: URLSession, @unchecked Sendable {
  // @unchecked Sendable: `outcome` and `waiting` are guarded by `lock`.
  /// A result as a completion handler receives it.
  struct Outcome: @unchecked Sendable {
    // @unchecked Sendable: immutable; the error is only read.
    var data: Data?
    var response: URLResponse?
    var error: (any Error)?
  }

  typealias Handler = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

  private let lock = NSLockBox()
  /// The answer, once the harness gave one.
  private var outcome: Outcome?
  /// Tasks resumed before the answer came.
  private var waiting: [AnsweringTask] = []

  static func make() -> AnsweringSession {
    AnsweringSession(configuration: .ephemeral)
  }

  /// Gives the answer (only the first counts) to the tasks waiting for it and to later ones.
  func answer(_ outcome: Outcome) {
    let (settled, tasks) = lock.withLock { () -> (Outcome, [AnsweringTask]) in
      if self.outcome == nil { self.outcome = outcome }
      defer { waiting = [] }
      return (self.outcome ?? outcome, waiting)
    }
    for task in tasks { task.fire(settled) }
  }

  fileprivate func resumed(_ task: AnsweringTask) {
    let settled = lock.withLock { () -> Outcome? in
      if outcome == nil, !waiting.contains(where: { $0 === task }) { waiting.append(task) }
      return outcome
    }
    if let settled { task.fire(settled) }
  }

  fileprivate func cancelled(_ task: AnsweringTask) {
    lock.withLock { waiting.removeAll { $0 === task } }
    task.fire(Outcome(data: nil, response: nil, error: URLError(.cancelled)))
  }

  override func dataTask(
    with request: URLRequest, completionHandler: @escaping Handler
  ) -> URLSessionDataTask {
    AnsweringTask(session: self, handler: completionHandler)
  }
}

extension AnsweringSession.Outcome {
  /// A 200 response whose body is `text`.
  static func response(_ text: String) -> Self {
    let response = HTTPURLResponse(
      url: URL(string: "http://conformance.invalid/")!, statusCode: 200, httpVersion: nil,
      headerFields: nil)
    return Self(data: Data(text.utf8), response: response, error: nil)
  }
}

/// A data task of ``AnsweringSession``.
final class AnsweringTask: URLSessionDataTask, @unchecked Sendable {
  // @unchecked Sendable: `handler` is guarded by `lock`; `answering` is set once.
  private let lock = NSLockBox()
  private var handler: AnsweringSession.Handler?
  private let answering: AnsweringSession

  init(session: AnsweringSession, handler: @escaping AnsweringSession.Handler) {
    answering = session
    self.handler = handler
    super.init()
  }

  override func resume() { answering.resumed(self) }

  override func cancel() { answering.cancelled(self) }

  /// Calls the completion handler, the first time only, and lets go of it.
  func fire(_ outcome: AnsweringSession.Outcome) {
    let handler = lock.withLock { () -> AnsweringSession.Handler? in
      defer { self.handler = nil }
      return self.handler
    }
    handler?(outcome.data, outcome.response, outcome.error)
  }
}
