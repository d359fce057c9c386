import CombineExCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The configuration of the tests' sessions: ephemeral, without a `URLCache`, with bounded
/// timeouts. No cache, because FoundationNetworking on Linux can stop the process when a task
/// is cancelled while its session reads the cache ("Trying to access a behaviour for a task
/// that in not in the registry", seen under the thread sanitizer in the stress test).
func testConfiguration() -> URLSessionConfiguration {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.urlCache = nil
  configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
  configuration.timeoutIntervalForRequest = 60
  configuration.timeoutIntervalForResource = 60
  return configuration
}

/// A session for one test (see ``testConfiguration()``).
func makeSession() -> URLSession {
  URLSession(configuration: testConfiguration())
}

/// A real session that counts the data tasks it was asked for (before the request goes out).
final class CountingSession: URLSession, @unchecked Sendable {
  // @unchecked Sendable: `count` is a `LockedBox`; the rest is URLSession's.
  private let count = LockedBox(0)

  /// How many data tasks were created so far.
  var dataTaskCount: Int { count.withLock { $0 } }

  override func dataTask(
    with request: URLRequest,
    completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
  ) -> URLSessionDataTask {
    count.withLock { $0 += 1 }
    return super.dataTask(with: request, completionHandler: completionHandler)
  }
}

/// Holds an object weakly, to check that it was freed.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
  // @unchecked Sendable: weak references are loaded atomically by the runtime.
  weak var object: Object?

  init(_ object: Object?) {
    self.object = object
  }
}

/// Waits until `condition` holds, checking every 10 milliseconds, for at most `timeout`;
/// records an issue if it never does. For what another thread (the session's delegate queue)
/// finishes after the event a test awaited: a bounded wait, not a pause.
func expectEventually(
  _ what: String, timeout: Duration = .seconds(30),
  sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async {
  let clock = ContinuousClock()
  let deadline = clock.now + timeout
  while !condition() {
    guard clock.now < deadline else {
      Issue.record("not within \(timeout): \(what)", sourceLocation: sourceLocation)
      return
    }
    try? await Task.sleep(for: .milliseconds(10))
  }
}

/// Waits for `semaphore` on a thread of its own (never holding a thread of the cooperative
/// pool) for at most `timeout`; returns whether it was signalled.
func waitFor(_ semaphore: DispatchSemaphore, timeout: Duration = .seconds(30)) async -> Bool {
  let seconds = Double(timeout.components.seconds)
  return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    let thread = Thread {
      continuation.resume(returning: semaphore.wait(timeout: .now() + seconds) == .success)
    }
    thread.start()
  }
}

/// A subscriber that records what it receives, keeps its subscription until the end (like a
/// `Sink`), and can cancel from inside `receive(_:)`.
final class SpySubscriber: Subscriber, @unchecked Sendable {
  // @unchecked Sendable: `state` is a `LockedBox`.
  typealias Input = URLSession.DataTaskPublisher.Output
  typealias Failure = URLError

  struct State {
    var subscription: (any Subscription)?
    var values: [Input] = []
    var completions: [Subscribers.Completion<URLError>] = []
    /// Events that arrived after a `cancel()` had returned.
    var eventsAfterCancel = 0
    var cancelReturned = false
  }

  let state = LockedBox(State())
  private let initialDemand: Subscribers.Demand
  private let cancelsOnValue: Bool
  /// Signalled on the completion.
  let completed = DispatchSemaphore(value: 0)

  init(initialDemand: Subscribers.Demand = .unlimited, cancelsOnValue: Bool = false) {
    self.initialDemand = initialDemand
    self.cancelsOnValue = cancelsOnValue
  }

  var subscription: (any Subscription)? { state.withLock { $0.subscription } }
  var values: [Input] { state.withLock { $0.values } }
  var completions: [Subscribers.Completion<URLError>] { state.withLock { $0.completions } }
  var eventsAfterCancel: Int { state.withLock { $0.eventsAfterCancel } }

  func receive(subscription: any Subscription) {
    state.withLock { $0.subscription = subscription }
    if initialDemand > .none { subscription.request(initialDemand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    state.withLock {
      $0.values.append(input)
      if $0.cancelReturned { $0.eventsAfterCancel += 1 }
    }
    if cancelsOnValue { cancel() }
    return .none
  }

  func receive(completion: Subscribers.Completion<URLError>) {
    state.withLock {
      $0.completions.append(completion)
      if $0.cancelReturned { $0.eventsAfterCancel += 1 }
      $0.subscription = nil
    }
    completed.signal()
  }

  func request(_ demand: Subscribers.Demand) {
    subscription?.request(demand)
  }

  /// Cancels and lets go of the subscription.
  func cancel() {
    let subscription = state.withLock { state -> (any Subscription)? in
      defer { state.subscription = nil }
      return state.subscription
    }
    subscription?.cancel()
    state.withLock { $0.cancelReturned = true }
  }

  /// Cancels through a subscription the caller kept (several threads may race to).
  func cancel(_ subscription: any Subscription) {
    subscription.cancel()
    state.withLock {
      $0.cancelReturned = true
      $0.subscription = nil
    }
  }
}

extension URLResponse {
  /// The HTTP status code, or -1 for a response that is not HTTP.
  var httpStatus: Int { (self as? HTTPURLResponse)?.statusCode ?? -1 }
}
