import CombineExCore
import Foundation
import Testing

/// A scheduler whose time moves only when the test says so: work runs when virtual time
/// reaches it, during ``advance(by:)``, ``advance(to:)`` or ``run(limit:sourceLocation:)``, on the
/// thread that
/// advances.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// var output: [Int] = []
/// let cancellable = Just(1)
///   .delay(for: .seconds(1), scheduler: scheduler)
///   .sink { output.append($0) }
/// #expect(output == [])
/// scheduler.advance(by: .milliseconds(999))
/// #expect(output == [])
/// scheduler.advance(by: .milliseconds(1))
/// #expect(output == [1])
/// ```
///
/// Rules:
/// - Work runs in order of its due time; work due at the same time runs first-in first-out.
/// - Work scheduled while the scheduler advances (by the work itself) runs in the same call if
///   it falls due within the advance; work scheduled for a past time runs at the current time.
/// - ``now`` never moves backwards; while a piece of work runs, ``now`` is its due time.
/// - Repeating work runs at its start date and then every interval until its cancellable is
///   cancelled. Repeating work that cannot move forward in time (a zero interval, or
///   `ImmediateScheduler` times) runs at most once per advance.
///
/// Make one with a scheduler's `test` property (`DispatchQueue.test`, `RunLoop.test`,
/// `OperationQueue.test`, `ImmediateScheduler.test`) or with ``init(now:)``;
/// ``TestSchedulerOf`` names the type for a scheduler.
///
/// The scheduler is thread-safe: work may be scheduled from any thread.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler,
  @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  // @unchecked Sendable: every stored property is guarded by `lock`, and work runs outside it.
  private let lock = NSLock()
  private var currentTime: SchedulerTimeType
  /// Waiting work, sorted by due time, first-in first-out among equal times.
  private var queue: [ScheduledWork] = []
  /// Counts advances, so that repeating work that cannot move forward runs once per advance.
  private var advanceCount: UInt64 = 0
  /// The duration of a marble diagram's tick on this scheduler, unless a call gives one.
  private var storedMarbleTick: SchedulerTimeType.Stride = .seconds(1)

  /// One piece of work waiting for its time.
  private struct ScheduledWork {
    var date: SchedulerTimeType
    let action: () -> Void
    /// Repeating work: its interval and its cancellation token.
    let repetition: (interval: SchedulerTimeType.Stride, token: RepetitionToken)?
    /// The work may not run during advances numbered below this one.
    var notBeforeAdvance: UInt64
  }

  /// Creates a test scheduler whose clock starts at `now`.
  public init(now: SchedulerTimeType) {
    currentTime = now
  }

  /// The current virtual time.
  public var now: SchedulerTimeType {
    lock.withLock { currentTime }
  }

  /// The minimum tolerance: zero (tolerance is ignored; work runs exactly at its time).
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// The duration of one tick of the marble diagrams played or expected on this scheduler
  /// (`hotPublisher(_:)`, `expect(_:toProduce:)`) when the call passes no `tick:`: one second
  /// unless set. Set it once, where the test makes the scheduler:
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// scheduler.marbleTick = .milliseconds(100)
  /// let keystrokes = scheduler.hotPublisher("-a-b-c---|")
  /// scheduler.expect(
  ///   keystrokes.debounce(for: .milliseconds(200), scheduler: scheduler),
  ///   toProduce: "-------c-|")
  /// ```
  public var marbleTick: SchedulerTimeType.Stride {
    get { lock.withLock { storedMarbleTick } }
    set { lock.withLock { storedMarbleTick = newValue } }
  }

  /// How many pieces of work wait for their time (repeating work counts once).
  public var pendingWorkCount: Int {
    lock.withLock { queue.count }
  }

  /// What waits on this scheduler, for a ``TestStore`` that watches it
  /// (``ManuallyAdvancedScheduler``).
  public var waitingWork: WaitingWork {
    lock.withLock {
      WaitingWork(
        count: queue.count,
        nextDueIn: queue.first.map { duration(from: currentTime, to: $0.date) },
        advances: advanceCount)
    }
  }

  // MARK: Scheduler

  /// Schedules `action` at the current time: it runs on the next advance (even by zero).
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    enqueue(at: nil, action: action, repetition: nil)
  }

  /// Schedules `action` at `date` (tolerance is ignored).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    enqueue(at: date, action: action, repetition: nil)
  }

  /// Schedules `action` at `date`, then every `interval`, until the returned cancellable is
  /// cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let token = RepetitionToken()
    enqueue(at: date, action: action, repetition: (interval, token))
    return AnyCancellable { [weak self] in
      token.cancel()
      self?.remove(token)
    }
  }

  // MARK: Advancing

  /// Advances virtual time by `stride`, running every piece of work that falls due, in order.
  ///
  /// `advance()` (by zero) runs the work due now, such as work scheduled with
  /// `schedule(_:)` or a `receive(on:)` delivery.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// var ran: [String] = []
  /// scheduler.schedule { ran.append("now") }
  /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { ran.append("2 s") }
  /// scheduler.advance()  // runs only the work due now
  /// #expect(ran == ["now"])
  /// scheduler.advance(by: .seconds(2))
  /// #expect(ran == ["now", "2 s"])
  /// ```
  public func advance(by stride: SchedulerTimeType.Stride = .zero) {
    advance(to: now.advanced(by: stride))
  }

  /// Advances virtual time to `instant`, running every piece of work due at or before it, in
  /// order of due time (first-in first-out for equal times), including work scheduled by that
  /// work. Time never moves backwards: an earlier `instant` only runs the work due now.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let start = scheduler.now
  /// var ran: [Int] = []
  /// scheduler.schedule(after: start.advanced(by: .seconds(1))) { ran.append(1) }
  /// scheduler.schedule(after: start.advanced(by: .seconds(3))) { ran.append(3) }
  /// scheduler.advance(to: start.advanced(by: .seconds(2)))
  /// #expect(ran == [1])
  /// #expect(scheduler.now == start.advanced(by: .seconds(2)))
  /// ```
  public func advance(to instant: SchedulerTimeType) {
    let thisAdvance = lock.withLock { () -> UInt64 in
      advanceCount &+= 1
      return advanceCount
    }
    while let work = takeNext(dueBy: instant, advance: thisAdvance) {
      work()
    }
    lock.withLock {
      if currentTime < instant { currentTime = instant }
    }
  }

  /// Runs every piece of work until none is left, moving time to each one's due time.
  ///
  /// Repeating work keeps rescheduling itself, so `run()` stops (and records a test issue)
  /// after `limit` pieces of work; cancel repeating work first, or use ``advance(by:)``.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let start = scheduler.now
  /// var output: [Int] = []
  /// let cancellable = Just(1)
  ///   .delay(for: .seconds(10), scheduler: scheduler)
  ///   .sink { output.append($0) }
  /// scheduler.run()  // moves time to the delayed value's due time and delivers it
  /// #expect(output == [1])
  /// #expect(scheduler.now == start.advanced(by: .seconds(10)))
  /// ```
  public func run(limit: Int = 100_000, sourceLocation: SourceLocation = #_sourceLocation) {
    var executed = 0
    while let last = lock.withLock({ queue.last?.date }) {
      let thisAdvance = lock.withLock { () -> UInt64 in
        advanceCount &+= 1
        return advanceCount
      }
      while let work = takeNext(dueBy: last, advance: thisAdvance) {
        work()
        executed += 1
        if executed >= limit {
          let message =
            "TestScheduler.run() stopped after \(limit) pieces of work: repeating work is "
            + "still scheduled. Cancel it, or advance by a fixed amount instead."
          Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
          return
        }
      }
      lock.withLock {
        if currentTime < last { currentTime = last }
      }
    }
  }

  // MARK: Internals

  private func enqueue(
    at date: SchedulerTimeType?, action: @escaping () -> Void,
    repetition: (interval: SchedulerTimeType.Stride, token: RepetitionToken)?
  ) {
    lock.withLock {
      insert(
        ScheduledWork(
          date: date ?? currentTime, action: action,
          repetition: repetition, notBeforeAdvance: 0))
    }
  }

  private func remove(_ token: RepetitionToken) {
    lock.withLock {
      queue.removeAll { $0.repetition?.token === token }
    }
  }

  /// Removes and returns the earliest work due by `instant` (setting `now` to its time), and
  /// reschedules it if it repeats.
  private func takeNext(dueBy instant: SchedulerTimeType, advance: UInt64) -> (() -> Void)? {
    lock.withLock { () -> (() -> Void)? in
      while let index = earliest(dueBy: instant, advance: advance) {
        let work = queue.remove(at: index)
        if let repetition = work.repetition, repetition.token.isCancelled { continue }
        if currentTime < work.date { currentTime = work.date }
        guard let repetition = work.repetition else { return work.action }
        let next = work.date.advanced(by: repetition.interval)
        insert(
          ScheduledWork(
            date: next, action: work.action, repetition: repetition,
            notBeforeAdvance: work.date < next ? 0 : advance &+ 1))
        let token = repetition.token
        let action = work.action
        return { if !token.isCancelled { action() } }
      }
      return nil
    }
  }

  /// The index of the earliest work due by `instant` that may run in this advance. Call with
  /// `lock` held.
  private func earliest(dueBy instant: SchedulerTimeType, advance: UInt64) -> Int? {
    for index in queue.indices {
      if instant < queue[index].date { return nil }
      if queue[index].notBeforeAdvance <= advance { return index }
    }
    return nil
  }

  /// Inserts `work` after every piece of work due at or before its time, keeping `queue`
  /// sorted by due time, first-in first-out among equal times. Call with `lock` held.
  private func insert(_ work: ScheduledWork) {
    var low = 0
    var high = queue.count
    while low < high {
      let middle = (low + high) / 2
      if work.date < queue[middle].date {
        high = middle
      } else {
        low = middle + 1
      }
    }
    queue.insert(work, at: low)
  }
}

/// Cancellation of a repeating piece of work.
private final class RepetitionToken: @unchecked Sendable {
  // @unchecked Sendable: `cancelled` is guarded by `lock`.
  private let lock = NSLock()
  private var cancelled = false

  var isCancelled: Bool { lock.withLock { cancelled } }

  func cancel() { lock.withLock { cancelled = true } }
}

/// The ``TestScheduler`` with the time and options types of `Scheduler`.
///
/// ```swift
/// let scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
/// ```
public typealias TestSchedulerOf<Scheduler: CombineExCore.Scheduler> = TestScheduler<
  Scheduler.SchedulerTimeType, Scheduler.SchedulerOptions
>
