import CombineExCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The subscription of ``URLSession/DataTaskPublisher``: owns the lock around a
/// ``DataTaskStateMachine`` and performs, after unlocking, what its transitions return
/// (create, resume or cancel the task; deliver the result).
///
/// The session's completion handler holds the subscription until the session calls it (after
/// a cancel too, with `URLError.cancelled`, which is then ignored); the subscription holds the
/// task, the publisher and the subscriber until the result is delivered or it is cancelled.
final class DataTaskSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
  // @unchecked Sendable: `machine` is only read and written under `lock`.
  private let lock = Lock()
  private var machine: DataTaskStateMachine<Downstream>

  init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
    machine = DataTaskStateMachine(parent: parent, downstream: downstream)
  }

  var description: String { "DataTaskPublisher" }

  var playgroundDescription: Any { description }

  var customMirror: Mirror {
    let (task, downstream, parent, demand) = lock.withLock {
      (machine.task, machine.downstream, machine.parent, machine.demand)
    }
    let children: [Mirror.Child] = [
      ("task", task as Any), ("downstream", downstream as Any), ("parent", parent as Any),
      ("demand", demand),
    ]
    return Mirror(self, children: children)
  }

  func request(_ demand: Subscribers.Demand) {
    if demand == .none {
      apiViolation(
        "URLSession.DataTaskPublisher: a subscriber requested .none. Request at least one "
          + "value (Combine stops here too).")
    }
    switch lock.withLock({ machine.request(demand) }) {
    case .createTask(let parent):
      let task = parent.session.dataTask(
        with: parent.request, completionHandler: completionHandler(for: self))
      switch lock.withLock({ machine.taskCreated(task) }) {
      case .resume(let task): task.resume()
      case .cancel(let task): task.cancel()
      case .none: break
      }
    case .none:
      break
    }
  }

  func cancel() {
    let (task, released) = lock.withLock { machine.cancel() }
    task?.cancel()
    _ = released  // The subscriber and the publisher are let go of here, outside the lock.
  }

  /// The session's completion handler: delivers the result unless the subscription ended.
  func receiveResult(data: Data?, response: URLResponse?, error: (any Error)?) {
    let result = Self.result(data: data, response: response, error: error)
    let hasValue = if case .success = result { true } else { false }
    guard let taken = lock.withLock({ machine.receiveResult(hasValue: hasValue) }) else { return }
    switch result {
    case .success(let value):
      _ = taken.downstream.receive(value)
      if lock.withLock({ machine.endDelivery() }) {
        taken.downstream.receive(completion: .finished)
      }
    case .failure(let error):
      taken.downstream.receive(completion: .failure(error))
    }
  }

  /// What a data task's result publishes, as Combine maps it: a response without an error is
  /// a value (no data is empty data); a `URLError` (or an error of its domain) fails with it;
  /// anything else, including no response and no error, fails with `URLError(.unknown)`.
  static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<
    URLSession.DataTaskPublisher.Output, URLError
  > {
    switch (response, error) {
    case (let response?, nil):
      return .success((data: data ?? Data(), response: response))
    case (_, let error as URLError):
      return .failure(error)
    case (_, let error?) where (error as NSError).domain == NSURLErrorDomain:
      // Foundation on Linux reports the task's failures as NSErrors of the URL domain, which
      // Apple's platforms bridge to URLError.
      let error = error as NSError
      let code: URLError.Code? = URLError.Code(rawValue: error.code)
      return .failure(URLError(code ?? .unknown, userInfo: error.userInfo))
    case (_, _):
      return .failure(URLError(.unknown))
    }
  }
}

/// What the session's completion handler calls; lets the handler be made outside generic code.
protocol DataTaskResultReceiving: AnyObject, Sendable {
  func receiveResult(data: Data?, response: URLResponse?, error: (any Error)?)
}

extension DataTaskSubscription: DataTaskResultReceiving {}

/// The completion handler given to the session. Made in a non-generic function, so that it
/// captures no generic type (a `@Sendable` closure may not capture a non-Sendable metatype).
func completionHandler(for target: any DataTaskResultReceiving)
  -> @Sendable (Data?, URLResponse?, (any Error)?) -> Void
{
  { data, response, error in target.receiveResult(data: data, response: response, error: error) }
}
