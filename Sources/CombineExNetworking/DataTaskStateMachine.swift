import CombineExCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The life of one ``URLSession/DataTaskPublisher`` subscription, as a value: its transitions
/// only update the state and return what the caller (``DataTaskSubscription``) must do after
/// releasing its lock; nothing here calls out.
///
/// The task is created and resumed on the first demand (creating it calls the session, so it
/// happens outside the lock, in ``State/creatingTask(parent:downstream:)``). Later requests
/// only add demand: Combine resumes the task again on each, which Apple's Foundation ignores,
/// but FoundationNetworking on Linux can stop the process when a running task is resumed again
/// while it is being cancelled (seen in the stress test under the thread sanitizer). The task's
/// result ends the subscription: one value then `.finished`, or a failure. A cancel ends it
/// too, and hands back the task to cancel.
struct DataTaskStateMachine<Downstream: Subscriber>
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
  enum State {
    /// Subscribed; nothing requested yet, so there is no task.
    case awaitingDemand(parent: URLSession.DataTaskPublisher, downstream: Downstream)
    /// The first demand arrived: the thread that brought it is creating the task.
    case creatingTask(parent: URLSession.DataTaskPublisher, downstream: Downstream)
    /// Cancelled while the task was being created: the creator cancels the task it made.
    case cancelledWhileCreating
    /// The task exists and was resumed (or is about to be).
    case running(
      parent: URLSession.DataTaskPublisher, downstream: Downstream, task: URLSessionDataTask)
    /// The task's value is being delivered; a cancel now keeps `.finished` from following it
    /// (nothing after cancel, even a cancel made from inside `receive(_:)`).
    case delivering
    /// Completed or cancelled: nothing more happens.
    case terminated
  }

  /// What a request asks the caller to do.
  enum RequestAction {
    /// Create the task (the first demand), then report it with ``taskCreated(_:)``.
    case createTask(URLSession.DataTaskPublisher)
    /// Nothing: the task exists or is being created, or the subscription ended.
    case none
  }

  /// What the caller does with the task it just created.
  enum TaskCreatedAction {
    /// Resume it.
    case resume(URLSessionDataTask)
    /// Cancel it: the subscription was cancelled while it was being created.
    case cancel(URLSessionDataTask)
    /// Nothing: the result already came (from inside the session's call).
    case none
  }

  /// The objects a transition let go of; the caller releases them after unlocking, since a
  /// deinit (the subscriber's, a session subclass's) may run user code.
  typealias Released = (parent: URLSession.DataTaskPublisher, downstream: Downstream)?

  private(set) var state: State
  /// The demand requested so far (shown by the subscription's mirror, as in Combine).
  private(set) var demand = Subscribers.Demand.none

  init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
    state = .awaitingDemand(parent: parent, downstream: downstream)
  }

  /// The task, while there is one (for the mirror).
  var task: URLSessionDataTask? {
    if case .running(_, _, let task) = state { return task }
    return nil
  }

  /// The publisher, until the subscription ends (for the mirror).
  var parent: URLSession.DataTaskPublisher? {
    switch state {
    case .awaitingDemand(let parent, _), .creatingTask(let parent, _), .running(let parent, _, _):
      return parent
    case .cancelledWhileCreating, .delivering, .terminated:
      return nil
    }
  }

  /// The subscriber, until the subscription ends (for the mirror).
  var downstream: Downstream? {
    switch state {
    case .awaitingDemand(_, let downstream), .creatingTask(_, let downstream),
      .running(_, let downstream, _):
      return downstream
    case .cancelledWhileCreating, .delivering, .terminated:
      return nil
    }
  }

  /// The subscriber requested `demand` (more than none).
  mutating func request(_ demand: Subscribers.Demand) -> RequestAction {
    switch state {
    case .awaitingDemand(let parent, let downstream):
      self.demand += demand
      state = .creatingTask(parent: parent, downstream: downstream)
      return .createTask(parent)
    case .creatingTask, .running:
      self.demand += demand
      return .none
    case .cancelledWhileCreating, .delivering, .terminated:
      return .none
    }
  }

  /// The task asked for by ``RequestAction/createTask(_:)`` exists.
  mutating func taskCreated(_ task: URLSessionDataTask) -> TaskCreatedAction {
    switch state {
    case .creatingTask(let parent, let downstream):
      state = .running(parent: parent, downstream: downstream, task: task)
      return .resume(task)
    case .cancelledWhileCreating:
      state = .terminated
      return .cancel(task)
    case .awaitingDemand, .running, .delivering, .terminated:
      return .none
    }
  }

  /// The task reported its result. Returns the subscriber to deliver it to, or `nil` if the
  /// subscription already ended (a late or repeated report); `hasValue` says whether a value
  /// will be delivered (then ``endDelivery()`` follows) or only a failure.
  mutating func receiveResult(hasValue: Bool) -> (
    downstream: Downstream, task: URLSessionDataTask?, parent: URLSession.DataTaskPublisher
  )? {
    let taken: (Downstream, URLSessionDataTask?, URLSession.DataTaskPublisher)
    switch state {
    case .creatingTask(let parent, let downstream):
      taken = (downstream, nil, parent)
    case .running(let parent, let downstream, let task):
      taken = (downstream, task, parent)
    case .awaitingDemand, .cancelledWhileCreating, .delivering, .terminated:
      // No demand yet (a session that calls back without being resumed) or already ended.
      return nil
    }
    state = hasValue ? .delivering : .terminated
    demand = .none
    return taken
  }

  /// The value was delivered: returns whether `.finished` follows (no cancel came meanwhile).
  mutating func endDelivery() -> Bool {
    guard case .delivering = state else { return false }
    state = .terminated
    return true
  }

  /// The subscriber cancelled. Returns the task to cancel, if one runs, and what the
  /// subscription let go of.
  mutating func cancel() -> (task: URLSessionDataTask?, released: Released) {
    let result: (URLSessionDataTask?, Released)
    switch state {
    case .awaitingDemand(let parent, let downstream):
      state = .terminated
      result = (nil, (parent, downstream))
    case .creatingTask(let parent, let downstream):
      state = .cancelledWhileCreating
      result = (nil, (parent, downstream))
    case .running(let parent, let downstream, let task):
      state = .terminated
      result = (task, (parent, downstream))
    case .delivering:
      state = .terminated
      result = (nil, nil)
    case .cancelledWhileCreating, .terminated:
      return (nil, nil)
    }
    demand = .none
    return result
  }
}
