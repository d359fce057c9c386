import CombineExCore
import Foundation
import Testing

/// A subscriber that records everything it receives, with demand under the test's control.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let recorder = subject.record(initialDemand: .max(1))
/// subject.send(1)
/// subject.send(2)  // dropped: no demand left
/// recorder.request(.max(1))
/// subject.send(3)
/// #expect(recorder.values == [1, 3])
/// ```
///
/// Reading ``values``, ``events`` and ``receivedCompletion`` returns what arrived so far. The
/// `async` accessors (``next(timeout:sourceLocation:filePath:line:)``, ``completion``,
/// ``values(count:timeout:sourceLocation:filePath:line:)``) wait for events that arrive on other
/// threads, and record a test failure instead of hanging when they do not arrive in time.
///
/// ## Where failures are reported
/// A method that waits reports its failure at the line that called it. The ``completion``
/// property cannot take the caller's line (a property has no arguments), so it reports at the
/// line that made the subscriber (the `record()` call); call
/// ``completion(timeout:sourceLocation:filePath:line:)`` to report at the waiting line instead.
/// Failures are recorded through Swift Testing's `Issue.record` when a Swift Testing test is
/// running on the current task, otherwise through XCTest's `XCTFail`. The waiting methods take
/// `sourceLocation` (where Swift Testing reports; a helper of your own can forward its caller's)
/// and `filePath` and `line` (where XCTest reports), all defaulting to the caller; their
/// `#_sourceLocation` default needs `import Testing` in the calling file, XCTest files included.
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
  CustomStringConvertible, @unchecked Sendable
{
  // @unchecked Sendable: every mutable stored property is guarded by `lock`; the others are
  // constants.
  /// One thing the subscriber received, in order.
  public enum Event {
    /// The subscription arrived.
    case subscription
    /// A value arrived.
    case value(Input)
    /// The completion arrived.
    case completion(Subscribers.Completion<Failure>)
  }

  private let lock = NSLock()
  private var subscription: (any Subscription)?
  private var recorded: [Event] = []
  /// The clock's reading at each recorded event, when the subscriber has a clock.
  private var times: [Any] = []
  private let clock: (() -> Any)?
  private var initialDemand: Subscribers.Demand
  private var demandAfterEachValue: Subscribers.Demand
  private var waiters: [(id: UInt64, wake: () -> Void)] = []
  private var nextWaiterID: UInt64 = 0
  private var isCancelled = false
  /// Where the subscriber was made: where ``completion`` reports a timeout.
  private let creation: CallSite

  /// The default time the `async` accessors wait before recording an issue: 30 seconds.
  ///
  /// It is there so that a missing event fails the test instead of hanging it, not to check
  /// latency, so it is generous: `swift test` runs tests in parallel, and on a busy two-core
  /// machine an awaited task can wait seconds for a thread. Pass a shorter `timeout` where a
  /// test expects nothing to arrive.
  public static var defaultTimeout: Duration { .seconds(30) }

  /// How long the `async` accessors wait when they are not given a `timeout`
  /// (``defaultTimeout`` unless the subscriber was made with another).
  public let timeout: Duration

  /// Creates a subscriber that requests `initialDemand` when it receives its subscription, and
  /// `demandAfterEachValue` more with every value (`.none` by default: demand is then under the
  /// test's control through ``request(_:)``).
  ///
  /// - Parameters:
  ///   - initialDemand: The demand requested with the subscription; unlimited by default.
  ///   - demandAfterEachValue: The demand returned for each value; none by default.
  ///   - timeout: How long the `async` accessors wait when they are not given a `timeout`.
  ///   - fileID: Where ``completion`` reports a timeout; the caller's
  ///     line by default. (These are the literals `TestStore` takes: unlike Swift Testing's
  ///     `#_sourceLocation`, they need no `import Testing` where the subscriber is made.)
  ///   - filePath: See `fileID`.
  ///   - line: See `fileID`.
  ///   - column: See `fileID`.
  public init(
    initialDemand: Subscribers.Demand = .unlimited,
    demandAfterEachValue: Subscribers.Demand = .none,
    timeout: Duration = defaultTimeout,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.initialDemand = initialDemand
    self.demandAfterEachValue = demandAfterEachValue
    self.timeout = timeout
    creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    clock = nil
  }

  /// Creates a subscriber that also records `scheduler`'s time at each event (read them with
  /// ``timedEvents(as:)``). The other parameters are those of
  /// ``init(initialDemand:demandAfterEachValue:timeout:fileID:filePath:line:column:)``.
  public init<S: Scheduler>(
    initialDemand: Subscribers.Demand = .unlimited,
    demandAfterEachValue: Subscribers.Demand = .none,
    scheduler: S,
    timeout: Duration = defaultTimeout,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    self.initialDemand = initialDemand
    self.demandAfterEachValue = demandAfterEachValue
    self.timeout = timeout
    creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    clock = { scheduler.now }
  }

  /// Every event with the time its scheduler showed when it arrived; empty unless the
  /// subscriber was made with a scheduler.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let recorder = Just(1).delay(for: .seconds(2), scheduler: scheduler)
  ///   .record(scheduler: scheduler)
  /// scheduler.advance(by: .seconds(2))
  /// let times = recorder.timedEvents(as: DispatchQueue.SchedulerTimeType.self).map(\.time)
  /// ```
  public func timedEvents<Time>(as _: Time.Type = Time.self) -> [(time: Time, event: Event)] {
    lock.withLock {
      zip(times, recorded).compactMap { time, event in
        (time as? Time).map { ($0, event) }
      }
    }
  }

  /// A textual representation listing the recorded events.
  public var description: String {
    "TestSubscriber(\(events))"
  }

  // MARK: Recorded state

  /// Everything received so far, in order.
  public var events: [Event] { lock.withLock { recorded } }

  /// The values received so far.
  public var values: [Input] {
    events.compactMap { event in
      if case .value(let value) = event { return value }
      return nil
    }
  }

  /// The completion, if it has arrived.
  public var receivedCompletion: Subscribers.Completion<Failure>? {
    for case .completion(let completion) in events { return completion }
    return nil
  }

  /// Whether a subscription has arrived.
  public var isSubscribed: Bool { lock.withLock { subscription != nil } }

  /// How many completions arrived (more than one is a broken publisher).
  public var completionCount: Int {
    events.filter { if case .completion = $0 { return true } else { return false } }.count
  }

  // MARK: Control

  /// Requests more values from the subscription.
  public func request(_ demand: Subscribers.Demand) {
    let subscription = lock.withLock { self.subscription }
    subscription?.request(demand)
  }

  /// Cancels the subscription.
  public func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      isCancelled = true
      return self.subscription
    }
    subscription?.cancel()
  }

  // MARK: Subscriber

  /// Records the subscription and requests the initial demand; cancels it at once if
  /// ``cancel()`` was called before it arrived.
  public func receive(subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      self.subscription = subscription
      recorded.append(.subscription)
      if let clock { times.append(clock()) }
      return isCancelled ? nil : initialDemand
    }
    wakeWaiters()
    guard let demand else {
      subscription.cancel()
      return
    }
    if demand != .none { subscription.request(demand) }
  }

  /// Records the value and returns `demandAfterEachValue`.
  public func receive(_ input: Input) -> Subscribers.Demand {
    let demand = lock.withLock { () -> Subscribers.Demand in
      recorded.append(.value(input))
      if let clock { times.append(clock()) }
      return demandAfterEachValue
    }
    wakeWaiters()
    return demand
  }

  /// Records the completion.
  public func receive(completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      recorded.append(.completion(completion))
      if let clock { times.append(clock()) }
    }
    wakeWaiters()
  }

  // MARK: Waiting

  /// Waits for the value after those already returned by `next`, and returns it; records a
  /// failure at the caller's line and returns `nil` on timeout or if the publisher completes
  /// first.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; the subscriber's ``timeout`` by default.
  ///   - sourceLocation: Where a failure is reported (Swift Testing, XCTest).
  ///   - filePath: See `sourceLocation`.
  ///   - line: See `sourceLocation`.
  public func next(
    timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) async -> Input? {
    let timeout = timeout ?? self.timeout
    let index = lock.withLock { () -> Int in
      defer { nextIndex += 1 }
      return nextIndex
    }
    let arrived = await wait(timeout: timeout) { [self] in
      self.values.count > index || self.receivedCompletion != nil
    }
    let received = values
    if received.count > index { return received[index] }
    reportTestFailure(
      arrived
        ? "The publisher completed before value #\(index + 1): \(events)"
        : "Timed out after \(timeout) waiting for value #\(index + 1): \(events)",
      at: CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line))
    return nil
  }
  private var nextIndex = 0

  /// Waits until `count` values have arrived and returns them (fewer, with a failure reported at
  /// the caller's line, on timeout or early completion).
  ///
  /// - Parameters:
  ///   - count: How many values to wait for.
  ///   - timeout: How long to wait; the subscriber's ``timeout`` by default.
  ///   - sourceLocation: Where a failure is reported (Swift Testing, XCTest).
  ///   - filePath: See `sourceLocation`.
  ///   - line: See `sourceLocation`.
  public func values(
    count: Int, timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) async -> [Input] {
    let timeout = timeout ?? self.timeout
    let arrived = await wait(timeout: timeout) { [self] in
      self.values.count >= count || self.receivedCompletion != nil
    }
    let received = values
    if received.count < count {
      reportTestFailure(
        arrived
          ? "The publisher completed after \(received.count) of \(count) values: \(events)"
          : "Timed out after \(timeout) waiting for \(count) values: \(events)",
        at: CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line))
    }
    return received
  }

  /// Waits for the completion (up to the subscriber's ``timeout``); records a failure and
  /// returns `nil` if it does not arrive.
  ///
  /// A property takes no arguments, so the failure is reported at the line that made the
  /// subscriber (the `record()` call). Use ``completion(timeout:sourceLocation:filePath:line:)``
  /// to report it at the waiting line.
  public var completion: Subscribers.Completion<Failure>? {
    get async {
      await completion(timeout: timeout, at: creation, madeHere: true)
    }
  }

  /// Waits for the completion; records a failure at the caller's line and returns `nil` if it
  /// does not arrive in time.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait (pass the subscriber's ``timeout`` for its usual wait).
  ///   - sourceLocation: Where a failure is reported (Swift Testing, XCTest).
  ///   - filePath: See `sourceLocation`.
  ///   - line: See `sourceLocation`.
  public func completion(
    timeout: Duration, sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) async -> Subscribers.Completion<Failure>? {
    await completion(
      timeout: timeout,
      at: CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line),
      madeHere: false)
  }

  private func completion(
    timeout: Duration, at site: CallSite, madeHere: Bool
  ) async -> Subscribers.Completion<Failure>? {
    _ = await wait(timeout: timeout) { [self] in receivedCompletion != nil }
    if let completion = receivedCompletion { return completion }
    let place = madeHere ? " (awaited through `completion` on the recorder made here)" : ""
    reportTestFailure(
      "Timed out after \(timeout) waiting for the completion\(place): \(events)", at: site)
    return nil
  }

  /// Suspends until `condition` holds or `timeout` passes; returns whether it holds.
  private func wait(timeout: Duration, until condition: @escaping @Sendable () -> Bool) async
    -> Bool
  {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
      if ContinuousClock.now >= deadline { return false }
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let id = lock.withLock { () -> UInt64 in
          nextWaiterID += 1
          waiters.append((nextWaiterID, { continuation.resume() }))
          return nextWaiterID
        }
        // Wake up at the deadline at the latest, or at once if the event already arrived.
        Task {
          if !condition() { try? await Task.sleep(until: deadline, clock: .continuous) }
          self.wake(id)
        }
      }
    }
    return true
  }

  private func wake(_ id: UInt64) {
    let waiter = lock.withLock { () -> (() -> Void)? in
      guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return waiters.remove(at: index).wake
    }
    waiter?()
  }

  private func wakeWaiters() {
    let woken = lock.withLock { () -> [(id: UInt64, wake: () -> Void)] in
      defer { waiters = [] }
      return waiters
    }
    for waiter in woken { waiter.wake() }
  }
}

extension TestSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}

extension Publisher {
  /// Subscribes a ``TestSubscriber`` that records everything this publisher sends, with
  /// `scheduler`'s time at each event.
  ///
  /// The parameters are those of
  /// ``TestSubscriber/init(initialDemand:demandAfterEachValue:scheduler:timeout:fileID:filePath:line:column:)``.
  public func record<S: Scheduler>(
    initialDemand: Subscribers.Demand = .unlimited,
    demandAfterEachValue: Subscribers.Demand = .none,
    scheduler: S,
    timeout: Duration = TestSubscriber<Output, Failure>.defaultTimeout,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> TestSubscriber<Output, Failure> {
    let subscriber = TestSubscriber<Output, Failure>(
      initialDemand: initialDemand, demandAfterEachValue: demandAfterEachValue,
      scheduler: scheduler, timeout: timeout, fileID: fileID, filePath: filePath, line: line,
      column: column)
    subscribe(subscriber)
    return subscriber
  }

  /// Subscribes a ``TestSubscriber`` that records everything this publisher sends.
  ///
  /// ```swift
  /// let recorder = [1, 2, 3].publisher.record()
  /// #expect(recorder.values == [1, 2, 3])
  /// #expect(recorder.receivedCompletion == .finished)
  /// ```
  ///
  /// The parameters are those of
  /// ``TestSubscriber/init(initialDemand:demandAfterEachValue:timeout:fileID:filePath:line:column:)``:
  /// in particular, `await recorder.completion` reports a timeout at the line of this call.
  public func record(
    initialDemand: Subscribers.Demand = .unlimited,
    demandAfterEachValue: Subscribers.Demand = .none,
    timeout: Duration = TestSubscriber<Output, Failure>.defaultTimeout,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> TestSubscriber<Output, Failure> {
    let subscriber = TestSubscriber<Output, Failure>(
      initialDemand: initialDemand, demandAfterEachValue: demandAfterEachValue,
      timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
    subscribe(subscriber)
    return subscriber
  }
}
