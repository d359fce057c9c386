import CombineExCore
import Foundation
import Synchronization
import Testing

/// What a ``UpstreamProbe`` saw: every demand requested from the upstream and every cancel.
final class UpstreamLog: Sendable {
  private let state = LockedBox<(requests: [Subscribers.Demand], cancels: Int, subscriptions: Int)>(
    ([], 0, 0))

  var requests: [Subscribers.Demand] { state.withLock { $0.requests } }
  var cancels: Int { state.withLock { $0.cancels } }
  var subscriptions: Int { state.withLock { $0.subscriptions } }

  /// The sum of every request (unlimited if any was).
  var totalDemand: Subscribers.Demand {
    requests.reduce(.none, +)
  }

  func recordRequest(_ demand: Subscribers.Demand) { state.withLock { $0.requests.append(demand) } }
  func recordCancel() { state.withLock { $0.cancels += 1 } }
  func recordSubscription() { state.withLock { $0.subscriptions += 1 } }
}

/// A publisher that forwards everything and records, in an ``UpstreamLog``, the demand
/// requested from it, its cancels and its subscriptions.
struct UpstreamProbe<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let upstream: Upstream
  let log: UpstreamLog

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    log.recordSubscription()
    upstream.subscribe(Probe(downstream: subscriber, log: log))
  }

  final class Probe<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    // @unchecked Sendable: `upstream` is guarded by `lock`; `log` is thread-safe.
    let downstream: Downstream
    let log: UpstreamLog
    private let lock = NSLock()
    private var upstream: (any Subscription)?

    init(downstream: Downstream, log: UpstreamLog) {
      self.downstream = downstream
      self.log = log
    }

    func receive(subscription: any Subscription) {
      lock.withLock { upstream = subscription }
      downstream.receive(subscription: self)
    }
    func receive(_ input: Upstream.Output) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
    func request(_ demand: Subscribers.Demand) {
      log.recordRequest(demand)
      lock.withLock { upstream }?.request(demand)
    }
    func cancel() {
      log.recordCancel()
      lock.withLock { upstream }?.cancel()
    }
  }
}

extension Publisher {
  /// Wraps the publisher in an ``UpstreamProbe`` that records into `log`.
  func probed(_ log: UpstreamLog) -> UpstreamProbe<Self> {
    UpstreamProbe(upstream: self, log: log)
  }
}

/// A thread that runs its own run loop until stopped, for tests of `RunLoop` scheduling and
/// `Timer.publish`.
final class RunLoopThread: @unchecked Sendable {
  // @unchecked Sendable: `runLoop` is written once before `init` returns (the semaphore orders
  // it); `stopped` is thread-safe.
  private(set) var runLoop: RunLoop!
  private let stopped = StopFlag()
  private let thread: Thread

  init() {
    let ready = DispatchSemaphore(value: 0)
    let box = RunLoopBox()
    let stopped = self.stopped
    thread = Thread {
      box.runLoop = RunLoop.current
      // A timer keeps the run loop alive (a run loop without sources returns at once).
      let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
      RunLoop.current.add(keepAlive, forMode: .default)
      ready.signal()
      while !stopped.isSet {
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
      }
      keepAlive.invalidate()
    }
    thread.start()
    ready.wait()
    runLoop = box.runLoop
  }

  /// Stops the thread's loop (within its 50 ms poll).
  func stop() {
    stopped.set()
  }

  deinit {
    stop()
  }
}

/// A flag set once, read from any thread.
private final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  var isSet: Bool { flag.load(ordering: .acquiring) }
  func set() { flag.store(true, ordering: .releasing) }
}

/// Hands the run loop from its thread to the initializer.
private final class RunLoopBox: @unchecked Sendable {
  // @unchecked Sendable: written before the semaphore is signalled, read after it is waited.
  var runLoop: RunLoop?
}

/// A flag that a test waits for (with a timeout) while another thread raises it.
final class Flag: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`.
  private let lock = NSLock()
  private var raised = false
  private var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
  private var nextID: UInt64 = 0

  var isRaised: Bool { lock.withLock { raised } }

  func raise() {
    let woken = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
      raised = true
      defer { waiters = [:] }
      return Array(waiters.values)
    }
    for waiter in woken { waiter.resume(returning: true) }
  }

  /// Waits until raised (returns `true`) or until `timeout` passes (returns `false`).
  func wait(timeout: Duration = .seconds(30)) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let id = lock.withLock { () -> UInt64? in
        if raised { return nil }
        nextID += 1
        waiters[nextID] = continuation
        return nextID
      }
      guard let id else {
        continuation.resume(returning: true)
        return
      }
      Task {
        try? await Task.sleep(for: timeout)
        let waiter = self.lock.withLock { self.waiters.removeValue(forKey: id) }
        waiter?.resume(returning: false)
      }
    }
  }
}

/// A thread-safe list of values.
final class Log<Value>: @unchecked Sendable {
  // @unchecked Sendable: `values` is guarded by `lock`.
  private let lock = NSLock()
  private var stored: [Value] = []

  var values: [Value] { lock.withLock { stored } }
  var count: Int { lock.withLock { stored.count } }

  func append(_ value: Value) { lock.withLock { stored.append(value) } }
}

/// Runs `body` as one block on `queue` and resumes when it has run: work the body schedules on
/// that (serial) queue, such as a timer, cannot run in the middle of it.
func onQueue(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    queue.async {
      body()
      continuation.resume()
    }
  }
}

/// Checks `schedule(after:)` on a real scheduler: an action due in 20 ms, then one due in 10 ms,
/// each run no earlier than asked, and in due order.
///
/// On a loaded machine the test thread can stall between the two calls past the earlier
/// deadline; such a round proves nothing about order and is tried again, with a new scheduler
/// (an idle machine never needs to). Every round checks that nothing ran early.
func expectScheduleAfterRunsInDueOrder<S: Scheduler>(
  on makeScheduler: () -> (scheduler: S, stop: () -> Void),
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  for _ in 0..<5 {
    let (scheduler, stop) = makeScheduler()
    defer { stop() }
    let start = scheduler.now
    let ranAt = Log<(Int, S.SchedulerTimeType)>()
    let bothRan = Flag()
    for milliseconds in [20, 10] {
      scheduler.schedule(after: start.advanced(by: .milliseconds(milliseconds))) {
        ranAt.append((milliseconds, scheduler.now))
        if ranAt.count == 2 { bothRan.raise() }
      }
    }
    let setUp = start.distance(to: scheduler.now)
    #expect(await bothRan.wait(), sourceLocation: sourceLocation)
    for (milliseconds, time) in ranAt.values {
      #expect(
        start.distance(to: time) >= .milliseconds(milliseconds), sourceLocation: sourceLocation)
    }
    if setUp < .milliseconds(10) {
      #expect(ranAt.values.map(\.0) == [10, 20], sourceLocation: sourceLocation)
      return
    }
  }
}
