#if DEBUG
  import CombineExCore
  import Foundation
  import Testing

  /// The operators' deliverer roles (``SerialOutbox`` behind `receive(on:)`, the
  /// ``DeliveryQueue`` of `buffer` and `zip`) under the interleaving explorer.
  @Suite("Interleavings explored: operators")
  struct ExploredOperatorHandshakeTests {
    @Test("explored over 2,000 seeds: receive(on:) delivering on one thread, cancelled on another")
    func exploreReceiveOnOutboxDelivererVersusCloser() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = TurnScheduler()
        let subscriber = ExploredSubscriber(log: log, initialDemand: .unlimited)
        subject.receive(on: scheduler).subscribe(subscriber)
        return ExploredScenario(
          threads: [
            {
              log.run("T0 send 1") { subject.send(1) }
              log.run("T0 send 2") { subject.send(2) }
            },
            {
              // The scheduler's thread: runs whatever is scheduled, a few times.
              for round in 0..<3 { log.run("T1 runs actions \(round)") { scheduler.runAll() } }
            },
            { log.run("T2 cancel") { subscriber.cancel() } },
          ],
          verdict: {
            // What is still scheduled runs now, after the cancel: it must deliver nothing.
            log.run("late actions") { scheduler.runAll() }
            return subscriber.verdict(expected: "a prefix of [1, 2], no completion") {
              values, completed in
              !completed && [[], [1], [1, 2]].contains(values)
            }
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test(
      "explored over 2,000 seeds: buffer delivers from the upstream's and the requester's thread")
    func exploreBufferDeliveryQueue() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = ExploredSubscriber(log: log, initialDemand: .max(1))
        subject.buffer(size: 10, prefetch: .keepFull, whenFull: .dropNewest)
          .subscribe(subscriber)
        return ExploredScenario(
          threads: [
            {
              for value in 1...3 { log.run("T0 send \(value)") { subject.send(value) } }
              log.run("T0 finish") { subject.send(completion: .finished) }
            },
            {
              log.run("T1 request 1") { subscriber.request(.max(1)) }
              log.run("T1 request 1 more") { subscriber.request(.max(1)) }
            },
          ],
          verdict: { subscriber.verdict(expecting: [1, 2, 3], completed: true) })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("explored over 2,000 seeds: zip delivers pairs made on two threads, in order, once")
    func exploreZipDeliveryQueue() async {
      let result = await explore(seeds: exploredSeeds) {
        let log = ScenarioLog()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let subscriber = ExploredSubscriber(log: log, initialDemand: .max(2))
        left.zip(right) { $0 * 10 + $1 }.subscribe(subscriber)
        return ExploredScenario(
          threads: [
            {
              log.run("T0 left 1") { left.send(1) }
              log.run("T0 left 2") { left.send(2) }
            },
            {
              log.run("T1 right 1") { right.send(1) }
              log.run("T1 right 2") { right.send(2) }
            },
            { log.run("T2 request 1") { subscriber.request(.max(1)) } },
          ],
          verdict: {
            log.run("finish") {
              left.send(completion: .finished)
              right.send(completion: .finished)
            }
            return subscriber.verdict(expecting: [11, 22], completed: true)
          })
      }
      #expect(result.failure == nil, "\(result.failure ?? "")")
    }
  }

  /// A scheduler whose actions run when a thread calls ``runAll()``: the scenario decides which
  /// thread runs scheduled work, as a dispatch queue's thread would.
  final class TurnScheduler: Scheduler, @unchecked Sendable {
    // @unchecked Sendable: `pending` is guarded by `lock` (an `NSLock`, not a point).
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let lock = NSLock()
    private var pending: [() -> Void] = []

    var now: SchedulerTimeType { DispatchQueue.SchedulerTimeType(.init(uptimeNanoseconds: 1)) }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
      lock.withLock { pending.append(action) }
    }

    func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
      _ action: @escaping () -> Void
    ) {
      schedule(options: nil, action)
    }

    func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
      schedule(options: nil, action)
      return AnyCancellable {}
    }

    /// Runs the actions scheduled so far, oldest first.
    func runAll() {
      let actions = lock.withLock {
        defer { pending = [] }
        return pending
      }
      for action in actions { action() }
    }
  }
#endif
