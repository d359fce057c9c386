// Shared by every test target: each target's Support folder links to this file.
#if DEBUG
  import CombineExCore
  import Foundation
  import Testing

  /// How many seeds each explored scenario runs in `swift test` (the test names say it too).
  let exploredSeeds = 2_000

  /// One run's worth of a scenario for the interleaving explorer, made fresh for every seed:
  /// the bodies of its threads, and the oracle that judges the run once they have returned.
  struct ExploredScenario: Sendable {
    /// One body per thread (two or three).
    let threads: [@Sendable () -> Void]
    /// Runs on the controlling thread after every thread has returned: finishes what the
    /// scenario leaves open (a completion, say) and returns what went wrong, or `nil`.
    let verdict: @Sendable () -> String?
  }

  /// What ``explore(seeds:test:timeoutSeconds:_:)`` found.
  struct ExplorationResult: Sendable {
    /// How many seeds ran.
    var seedsRun = 0
    /// How many steps (points passed) they took in all.
    var steps = 0
    /// The first failing run: its seed, what went wrong, and how to replay it.
    var failure: String?
    /// The failing seed, if any (the first one).
    var failingSeed: UInt64?
    /// How many seeds failed (more than one only with `INTERLEAVING_KEEP_GOING=1`).
    var failedSeeds = 0
  }

  /// Explores a scenario under `seeds` schedules (seeds 1...seeds), stopping at the first run
  /// that deadlocks, stalls or fails its oracle, and returns the result; the caller expects
  /// `failure == nil` (``ExplorationResult/failure`` says the seed and how to replay it).
  ///
  /// `INTERLEAVING_SEED=<n>` runs seed `n` alone and prints its trace; `INTERLEAVING_SEEDS=<n>`
  /// runs `n` seeds instead of the test's count (a longer local hunt), and
  /// `INTERLEAVING_KEEP_GOING=1` runs them all, counting the failing ones. Runs on a thread of
  /// its own, never on the cooperative pool.
  func explore(
    seeds: Int, test: String = #function, timeoutSeconds: Double = 30,
    _ makeScenario: @escaping @Sendable () -> ExploredScenario
  ) async -> ExplorationResult {
    let environment = ProcessInfo.processInfo.environment
    let replayed = environment["INTERLEAVING_SEED"].flatMap { UInt64($0) }
    let count = environment["INTERLEAVING_SEEDS"].flatMap { Int($0) } ?? seeds
    let seedList: [UInt64] = replayed.map { [$0] } ?? Array(1...UInt64(max(count, 1)))
    let keepsGoing = environment["INTERLEAVING_KEEP_GOING"] == "1"
    let filter = test.replacingOccurrences(of: "()", with: "")
    return await withCheckedContinuation {
      (continuation: CheckedContinuation<ExplorationResult, Never>) in
      Thread {
        var result = ExplorationResult()
        for seed in seedList {
          let scenario = makeScenario()
          let run = InterleavingExplorer.run(
            seed: seed, timeoutSeconds: timeoutSeconds, scenario.threads)
          result.seedsRun += 1
          result.steps += run.trace.count
          var problem: String?
          switch run.outcome {
          case .completed: problem = scenario.verdict()
          case .deadlocked(let what): problem = "deadlock: \(what)"
          case .stalled(let what): problem = "stalled: \(what)"
          }
          if replayed != nil, problem == nil {
            print("Interleaving seed \(seed) of \(filter) passed. Trace:\n\(run.traceDescription)")
          }
          guard let problem else { continue }
          result.failedSeeds += 1
          if result.failure == nil {
            result.failingSeed = seed
            result.failure =
              "seed \(seed) failed: \(problem)\n"
              + "Replay it: INTERLEAVING_SEED=\(seed) swift test --filter \(filter)\n"
              + "Trace (thread, point it passed):\n\(run.traceDescription)"
            print("Interleaving explorer, \(filter): \(result.failure!)")
          }
          if !keepsGoing { break }
        }
        if keepsGoing {
          print(
            "Interleaving explorer, \(filter): \(result.failedSeeds) of \(result.seedsRun) seeds "
              + "failed, \(result.steps) steps in all")
        }
        continuation.resume(returning: result)
      }.start()
    }
  }

  /// The order of what the threads of an explored scenario did, as one numbered log: only one
  /// of them runs at a time, so the log is the order in which things happened. Lets the oracle
  /// tell a delivery that was already on its way when a cancel returned (allowed) from one that
  /// began after it (a violation of rule 2).
  final class ScenarioLog: @unchecked Sendable {
    // @unchecked Sendable: everything is guarded by `lock` (an `NSLock`: a lock of the core
    // would be a point of the exploration).
    private let lock = NSLock()
    private var entries: [String] = []
    /// For each thread, the log position at which its current operation began.
    private var operationStart: [UInt: Int] = [:]
    /// The log position at which the subscriber's cancel returned.
    private var cancelReturnedAt: Int?

    /// Runs `body` as one operation of the calling thread ("T0 send 1"), logged before and
    /// after.
    func run(_ name: String, _ body: () -> Void) {
      lock.withLock {
        operationStart[Self.thread] = entries.count
        entries.append("\(name) begins")
      }
      body()
      lock.withLock {
        entries.append("\(name) returns")
        operationStart[Self.thread] = nil
      }
    }

    /// Logs that the subscriber's cancel returned.
    func cancelReturned() {
      lock.withLock {
        cancelReturnedAt = entries.count
        entries.append("cancel returned")
      }
    }

    /// Logs `event`, received by the subscriber; returns a problem if it comes from an
    /// operation that began after the cancel returned.
    func received(_ event: String) -> String? {
      lock.withLock {
        entries.append("received \(event)")
        guard let cancelReturnedAt else { return nil }
        let start = operationStart[Self.thread] ?? entries.count
        return start > cancelReturnedAt
          ? "\(event) was delivered by an operation that began after cancel() returned" : nil
      }
    }

    /// Whether entry `first` was logged before entry `second` (both logged: "T0 send 1 returns",
    /// "T1 cancel begins").
    func logged(_ first: String, before second: String) -> Bool {
      lock.withLock {
        guard let a = entries.firstIndex(of: first), let b = entries.firstIndex(of: second)
        else { return false }
        return a < b
      }
    }

    /// The log, for a failure message.
    var text: String { lock.withLock { entries.joined(separator: "; ") } }

    private static var thread: UInt {
      #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
      #else
        UInt(pthread_self())
      #endif
    }
  }

  /// The subscriber at the end of an explored scenario: it checks the rules as events arrive
  /// (never more values than it asked for, values in order and never twice, at most one
  /// completion and nothing after it, nothing begun after its cancel returned, one `receive`
  /// at a time) and records what it received for the final verdict.
  ///
  /// Values are `Int`s; a scenario with several senders gives each sender its own hundred
  /// (sender 1 sends 100, 101 ...), and the order is checked per hundred.
  final class ExploredSubscriber: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: everything mutable is guarded by `lock` (an `NSLock`).
    typealias Input = Int
    typealias Failure = Never

    private let lock = NSLock()
    private let log: ScenarioLog
    private let initialDemand: Subscribers.Demand
    private let returnedDemand: Subscribers.Demand
    private var subscription: (any Subscription)?
    private var granted = Subscribers.Demand.none
    private var receivedValues: [Int] = []
    private var completed = false
    /// The thread inside `receive(_:)`, and how deeply (a re-entrant send nests).
    private var insideReceive: (thread: UInt, depth: Int)?
    /// Called inside `receive(_:)` with each value (after it is recorded): what the subscriber
    /// does there (send, set, request, cancel).
    private let onValue: (@Sendable (Int) -> Void)?
    private var problems: [String] = []

    /// `initialDemand` is requested on subscription; `returnedDemand` is returned from every
    /// value; `onValue` runs inside `receive(_:)`.
    init(
      log: ScenarioLog, initialDemand: Subscribers.Demand,
      returnedDemand: Subscribers.Demand = .none, onValue: (@Sendable (Int) -> Void)? = nil
    ) {
      self.log = log
      self.initialDemand = initialDemand
      self.returnedDemand = returnedDemand
      self.onValue = onValue
    }

    /// The values received, in order.
    var values: [Int] { lock.withLock { receivedValues } }

    /// Whether the completion arrived.
    var isCompleted: Bool { lock.withLock { completed } }

    /// Asks for `demand` more values (counted before the call: values may arrive inside it).
    func request(_ demand: Subscribers.Demand) {
      let subscription = lock.withLock { () -> (any Subscription)? in
        granted += demand
        return self.subscription
      }
      subscription?.request(demand)
    }

    /// Cancels the subscription, and logs when the cancel returned.
    func cancel() {
      let subscription = lock.withLock { self.subscription }
      subscription?.cancel()
      log.cancelReturned()
    }

    func receive(subscription: any Subscription) {
      lock.withLock {
        self.subscription = subscription
        granted += initialDemand
      }
      if initialDemand > .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      let problem = log.received("\(input)")
      let thread = Self.thread
      lock.withLock {
        if let problem { problems.append(problem) }
        if let inside = insideReceive, inside.thread != thread {
          problems.append("\(input) was delivered while another thread was inside receive")
        }
        insideReceive = (thread, (insideReceive?.depth ?? 0) + 1)
        if completed { problems.append("\(input) was delivered after the completion") }
        if granted != .unlimited, receivedValues.count + 1 > granted.max ?? 0 {
          problems.append("\(input) exceeds the demand granted (\(granted))")
        }
        if receivedValues.contains(input) { problems.append("\(input) was delivered twice") }
        if let earlier = receivedValues.last(where: { $0 / 100 == input / 100 }), earlier > input {
          problems.append("\(input) was delivered after \(earlier)")
        }
        receivedValues.append(input)
        granted += returnedDemand
      }
      onValue?(input)
      lock.withLock {
        if let inside = insideReceive, inside.depth > 1 {
          insideReceive = (inside.thread, inside.depth - 1)
        } else {
          insideReceive = nil
        }
      }
      return returnedDemand
    }

    func receive(completion: Subscribers.Completion<Never>) {
      let problem = log.received("finished")
      lock.withLock {
        if let problem { problems.append(problem) }
        if completed { problems.append("a second completion was delivered") }
        completed = true
      }
    }

    /// `nil` if the subscriber broke no rule and `accept` accepts what it received (its values,
    /// and whether the completion came); otherwise what went wrong (`expected` says what
    /// `accept` wanted), with the log.
    func verdict(expected: String, accept: ([Int], Bool) -> Bool) -> String? {
      let (received, isCompleted, problems) = lock.withLock {
        (receivedValues, completed, self.problems)
      }
      var found = problems
      if !accept(received, isCompleted) {
        found.append(
          "received \(received)\(isCompleted ? " and the completion" : ""), expected \(expected)")
      }
      return found.isEmpty ? nil : found.joined(separator: "; ") + ". Log: \(log.text)"
    }

    /// `nil` if the subscriber received exactly `values` (and the completion, when
    /// `completed`) without breaking a rule; otherwise what went wrong, with the log.
    func verdict(expecting values: [Int], completed: Bool) -> String? {
      verdict(
        expected: "\(values)" + (completed ? " and the completion" : ""),
        accept: { $0 == values && $1 == completed })
    }

    private static var thread: UInt {
      #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
      #else
        UInt(pthread_self())
      #endif
    }
  }
#endif
