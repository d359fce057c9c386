import CombineEx
import Foundation
import Synchronization

/// How a scripted source delivers the values its subscriber asks for.
enum SourceDelivery: String, Sendable, CaseIterable {
  /// Only when the harness pumps it, like an upstream that produces later (a subject fed by
  /// another part of the program).
  case pumped
  /// At once, inside `request`, in a loop: a `request` made from inside `receive` only adds
  /// demand, which the loop serves after `receive` returns (like `Publishers.Sequence`).
  case synchronousLoop
  /// At once, inside `request`, recursively: a `request` made from inside `receive` delivers
  /// the next value nested inside the current delivery (a naive synchronous publisher).
  case synchronousNested
}

/// How a script ends once its values are sent.
enum ScriptEnd: Sendable, Equatable, CustomStringConvertible {
  /// The source finishes.
  case finished
  /// The source fails with `ConformanceError(id)`.
  case failure(Int)
  /// The source never completes.
  case open

  var description: String {
    switch self {
    case .finished: "|"
    case .failure(let id): "#E\(id)"
    case .open: "…"
    }
  }
}

/// What a source sends: its values (as `Int`s, turned into its output type by the source),
/// then its end.
struct SourceScript: Sendable, CustomStringConvertible {
  var values: [Int]
  var end: ScriptEnd

  var description: String { values.map(String.init).joined(separator: ",") + end.description }

  /// A random script: up to six small values (small, so that filters, duplicates and
  /// thresholds all matter), then a random end among those allowed.
  static func random(
    using generator: inout SeededGenerator, canFail: Bool, canFinish: Bool = true
  ) -> SourceScript {
    let count = generator.pick([0, 1, 1, 2, 3, 3, 4, 5, 6])
    let values = (0..<count).map { _ in generator.int(0...3) }
    var ends: [ScriptEnd] = [.open]
    if canFinish { ends += [.finished, .finished] }
    if canFail { ends.append(.failure(generator.int(1...9))) }
    return SourceScript(values: values, end: generator.pick(ends))
  }
}

/// Where one subscription to a source is in its life, from the source's point of view.
enum SourceStatus: Equatable {
  /// Subscribed, and neither completed nor cancelled.
  case live
  /// The source sent its completion.
  case completed
  /// The subscriber cancelled.
  case cancelled
}

/// The harness's view of an upstream, whatever its types.
protocol DrivableSource: AnyObject {
  /// A name for reports.
  var label: String { get }
  /// What the source sends.
  var script: SourceScript { get }
  /// Whether the source sees its subscriber's demand (a scripted publisher) or sends whatever
  /// the demand (a subject or property driven from outside).
  var seesDemand: Bool { get }
  /// The status of every subscription the source handed out, in order.
  var subscriptionStatuses: [SourceStatus] { get }
  /// Whether every scripted value has been sent on the latest subscription.
  var isExhausted: Bool { get }
  /// Whether the source can still send something (subscribed and live, or, for a driven
  /// source, not completed).
  var isLive: Bool { get }
  /// Sends the next scripted value, if the subscriber has demand for it (or if the source does
  /// not see demand). Returns whether it sent one.
  func sendNext() -> Bool
  /// Sends the scripted completion if every value has been sent. Returns whether it did.
  func completeIfExhausted() -> Bool
  /// Completes now, before the script is exhausted.
  func completeEarly(failing: Bool)
  /// Behaves badly towards subscriptions that ended (cancelled or completed): sends them a
  /// value (if `sendingValue`), a completion, and a second subscription. Returns problems seen
  /// (a second subscription that was not cancelled).
  func misbehave(sendingValue: Bool) -> [String]
  /// Weak references to what the pipeline must have freed once it ended.
  var leakWatch: [WeakReference] { get }
  /// Lets go of every subscriber, even those a careless source kept (cleanup after a run).
  func releaseSubscribers()
  /// Runs what the source has pending after the stream ended (the clock's scheduled work).
  func settleAfterEnd()
  /// A number that changes whenever the source sends, completes or is cancelled: the harness
  /// pumps until no source's mark (and nothing the subscriber saw) changes.
  var progressMark: Int { get }
}

extension DrivableSource {
  func settleAfterEnd() {}
}

/// A publisher under the harness's control: it hands each subscriber a subscription that
/// records demand and cancels, sends its scripted values only within that demand (when pumped,
/// or at once inside `request`, depending on `delivery`), and completes as scripted.
///
/// A well-behaved source (`releasesSubscribers`) lets go of a subscriber once it cancelled or
/// was completed, like any conforming publisher; a careless one keeps it, so that `misbehave()`
/// can keep sending to it.
final class ScriptedSource<Output, Failure: Error>: Publisher, DrivableSource,
  @unchecked Sendable
{
  // @unchecked Sendable: mutable state lives in `storage`, guarded by `lock`; subscribers are
  // called with the lock released.
  let label: String
  let script: SourceScript
  let delivery: SourceDelivery
  let releasesSubscribers: Bool
  private let makeValue: (Int) -> Output
  private let makeFailure: ((Int) -> Failure)?

  private struct Record {
    var subscriber: AnySubscriber<Output, Failure>?
    var cursor = 0
    var outstanding = Subscribers.Demand.none
    var status = SourceStatus.live
    var delivering = false
    /// The completion actually sent (`.open` while none was).
    var sentEnd = ScriptEnd.open
  }

  private struct State {
    var records: [Record] = []
    var watch: [WeakReference] = []
  }

  private let lock = NSLockBox()
  private var storage = State()

  private func withState<T>(_ body: (inout State) -> T) -> T {
    lock.withLock { body(&storage) }
  }

  init(
    label: String, script: SourceScript, delivery: SourceDelivery, releasesSubscribers: Bool,
    makeValue: @escaping (Int) -> Output, makeFailure: ((Int) -> Failure)?
  ) {
    self.label = label
    self.script = script
    self.delivery = delivery
    self.releasesSubscribers = releasesSubscribers
    self.makeValue = makeValue
    self.makeFailure = makeFailure
  }

  var seesDemand: Bool { true }

  var subscriptionStatuses: [SourceStatus] { withState { $0.records.map(\.status) } }

  var isExhausted: Bool {
    withState { ($0.records.last?.cursor ?? 0) >= script.values.count }
  }

  var isLive: Bool { withState { $0.records.last?.status == .live } }

  var leakWatch: [WeakReference] { withState { $0.watch } }

  var progressMark: Int {
    withState { state in
      state.records.reduce(state.records.count) { mark, record in
        mark &* 31 &+ record.cursor &* 7 &+ (record.status == .live ? 0 : 1)
          &+ (record.outstanding.max ?? -1) &* 131
      }
    }
  }

  /// What the latest subscription was actually sent: the values, then the completion if one
  /// was sent (`.open` otherwise).
  var sent: SourceScript {
    withState { state in
      guard let record = state.records.last else { return SourceScript(values: [], end: .open) }
      return SourceScript(values: Array(script.values.prefix(record.cursor)), end: record.sentEnd)
    }
  }

  /// The demand the latest subscriber has requested and not yet received.
  var outstandingDemand: Subscribers.Demand {
    withState { $0.records.last?.outstanding ?? .none }
  }

  // MARK: Publisher

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let handle = withState { state -> ScriptedSubscription in
      let handle = ScriptedSubscription(source: self, index: state.records.count)
      state.records.append(Record(subscriber: AnySubscriber(subscriber)))
      state.watch.append(WeakReference("the subscription \(label) handed out", handle))
      if S.self is AnyObject.Type {
        state.watch.append(
          WeakReference("\(label)'s subscriber \(S.self)", subscriber as AnyObject))
      }
      return handle
    }
    subscriber.receive(subscription: handle)
  }

  // MARK: Subscription calls

  fileprivate func request(_ demand: Subscribers.Demand, index: Int) {
    guard demand > 0 else { return }
    let drive = withState { state -> Bool in
      guard state.records[index].status == .live else { return false }
      state.records[index].outstanding += demand
      switch delivery {
      case .pumped:
        return false
      case .synchronousLoop:
        if state.records[index].delivering { return false }
        state.records[index].delivering = true
        return true
      case .synchronousNested:
        return true
      }
    }
    if drive { deliverSynchronously(index) }
  }

  fileprivate func cancel(index: Int) {
    let released = withState { state -> AnySubscriber<Output, Failure>? in
      guard state.records[index].status == .live else { return nil }
      state.records[index].status = .cancelled
      state.records[index].delivering = false
      guard releasesSubscribers else { return nil }
      defer { state.records[index].subscriber = nil }
      return state.records[index].subscriber
    }
    _ = released  // Released here, with the mutex unlocked: its deinit may call back.
  }

  private enum SyncStep {
    case value(AnySubscriber<Output, Failure>, Int)
    case complete(AnySubscriber<Output, Failure>)
    case stop
  }

  /// Serves the outstanding demand at once (synchronous deliveries).
  private func deliverSynchronously(_ index: Int) {
    while true {
      let step = withState { state -> SyncStep in
        var record = state.records[index]
        defer { state.records[index] = record }
        guard record.status == .live, let subscriber = record.subscriber else {
          record.delivering = false
          return .stop
        }
        if record.outstanding > 0, record.cursor < script.values.count {
          record.outstanding -= 1
          record.cursor += 1
          return .value(subscriber, script.values[record.cursor - 1])
        }
        if record.cursor >= script.values.count, script.end != .open {
          record.status = .completed
          record.sentEnd = script.end
          record.delivering = false
          if releasesSubscribers { record.subscriber = nil }
          return .complete(subscriber)
        }
        record.delivering = false
        return .stop
      }
      switch step {
      case .value(let subscriber, let value):
        let more = subscriber.receive(makeValue(value))
        addDemand(more, index: index)
      case .complete(let subscriber):
        subscriber.receive(completion: completion(for: script.end))
        return
      case .stop:
        return
      }
    }
  }

  private func addDemand(_ demand: Subscribers.Demand, index: Int) {
    guard demand > 0 else { return }
    withState { state in
      if state.records[index].status == .live { state.records[index].outstanding += demand }
    }
  }

  private func completion(for end: ScriptEnd) -> Subscribers.Completion<Failure> {
    if case .failure(let id) = end, let makeFailure { return .failure(makeFailure(id)) }
    return .finished
  }

  // MARK: Driving

  func sendNext() -> Bool {
    let taken = withState { state -> (AnySubscriber<Output, Failure>, Int, Int)? in
      guard let index = state.records.indices.last else { return nil }
      let record = state.records[index]
      guard record.status == .live, let subscriber = record.subscriber, record.outstanding > 0,
        record.cursor < script.values.count
      else { return nil }
      state.records[index].outstanding -= 1
      state.records[index].cursor += 1
      return (subscriber, script.values[record.cursor], index)
    }
    guard let (subscriber, value, index) = taken else { return false }
    addDemand(subscriber.receive(makeValue(value)), index: index)
    return true
  }

  func completeIfExhausted() -> Bool {
    guard script.end != .open else { return false }
    guard let subscriber = claimCompletion(script.end, onlyIfExhausted: true) else {
      return false
    }
    subscriber.receive(completion: completion(for: script.end))
    return true
  }

  func completeEarly(failing: Bool) {
    var end = failing ? ScriptEnd.failure(99) : .finished
    if makeFailure == nil { end = .finished }
    guard let subscriber = claimCompletion(end, onlyIfExhausted: false) else { return }
    subscriber.receive(completion: completion(for: end))
  }

  private func claimCompletion(_ end: ScriptEnd, onlyIfExhausted: Bool) -> AnySubscriber<
    Output, Failure
  >? {
    withState { state in
      guard let index = state.records.indices.last else { return nil }
      let record = state.records[index]
      guard record.status == .live, let subscriber = record.subscriber else { return nil }
      if onlyIfExhausted, record.cursor < script.values.count { return nil }
      state.records[index].status = .completed
      state.records[index].sentEnd = end
      if releasesSubscribers { state.records[index].subscriber = nil }
      return subscriber
    }
  }

  func releaseSubscribers() {
    let released = withState { state -> [AnySubscriber<Output, Failure>?] in
      defer {
        for index in state.records.indices { state.records[index].subscriber = nil }
      }
      return state.records.map(\.subscriber)
    }
    _ = released  // Released here, with the lock unlocked.
  }

  func misbehave(sendingValue: Bool) -> [String] {
    let ended = withState { state in
      state.records.filter { $0.status != .live }.compactMap(\.subscriber)
    }
    var problems: [String] = []
    for subscriber in ended {
      if sendingValue { _ = subscriber.receive(makeValue(0)) }
      subscriber.receive(completion: .finished)
      let extra = ExtraSubscription()
      subscriber.receive(subscription: extra)
      if !extra.wasCancelled {
        problems.append(
          "a second subscription sent by \(label) after the end was not cancelled")
      }
    }
    return problems
  }
}

/// The subscription a ``ScriptedSource`` hands out: it only forwards to the source, which
/// does not keep it, so a leak test can watch it.
private final class ScriptedSubscription<Output, Failure: Error>: Subscription,
  CustomStringConvertible, Sendable
{
  let source: ScriptedSource<Output, Failure>
  let index: Int

  init(source: ScriptedSource<Output, Failure>, index: Int) {
    self.source = source
    self.index = index
  }

  var description: String { "ScriptedSubscription(\(source.label))" }

  func request(_ demand: Subscribers.Demand) { source.request(demand, index: index) }

  func cancel() { source.cancel(index: index) }
}

/// A subscription that only records whether it was cancelled.
final class ExtraSubscription: Subscription, Sendable {
  private let cancelled = Atomic<Bool>(false)

  var wasCancelled: Bool { cancelled.load(ordering: .acquiring) }

  func request(_ demand: Subscribers.Demand) {}

  func cancel() { cancelled.store(true, ordering: .releasing) }
}

/// A source driven from outside the publisher under test, such as a subject or a property the
/// harness sends to: it sends whatever the demand, so it only drives, it sees nothing.
final class DrivenSource: DrivableSource, @unchecked Sendable {
  // @unchecked Sendable: `cursor` and `completed` are guarded by `lock`; the closures are
  // immutable.
  let label: String
  let script: SourceScript
  private let sendValue: (Int) -> Void
  private let sendCompletion: ((ScriptEnd) -> Void)?
  private let keepAlive: AnyObject
  private let lock = NSLockBox()
  private var cursor = 0
  private var completed = false

  /// - Parameters:
  ///   - keepAlive: the subject or property; the source keeps it alive for the whole run.
  ///   - sendCompletion: nil for a source that never completes (a `MutableProperty`).
  init(
    label: String, script: SourceScript, keepAlive: AnyObject,
    sendValue: @escaping (Int) -> Void, sendCompletion: ((ScriptEnd) -> Void)?
  ) {
    self.label = label
    self.script = script
    self.keepAlive = keepAlive
    self.sendValue = sendValue
    self.sendCompletion = sendCompletion
  }

  var seesDemand: Bool { false }
  var subscriptionStatuses: [SourceStatus] { [] }
  var isExhausted: Bool { lock.withLock { cursor >= script.values.count } }
  var isLive: Bool { lock.withLock { !completed } }
  var leakWatch: [WeakReference] { [] }
  var progressMark: Int { lock.withLock { cursor &* 2 &+ (completed ? 1 : 0) } }

  func sendNext() -> Bool {
    let value = lock.withLock { () -> Int? in
      guard !completed, cursor < script.values.count else { return nil }
      cursor += 1
      return script.values[cursor - 1]
    }
    guard let value else { return false }
    sendValue(value)
    return true
  }

  func completeIfExhausted() -> Bool {
    guard script.end != .open, let sendCompletion else { return false }
    let claimed = lock.withLock { () -> Bool in
      guard !completed, cursor >= script.values.count else { return false }
      completed = true
      return true
    }
    if claimed { sendCompletion(script.end) }
    return claimed
  }

  func completeEarly(failing: Bool) {
    guard let sendCompletion else { return }
    let claimed = lock.withLock { () -> Bool in
      defer { completed = true }
      return !completed
    }
    if claimed { sendCompletion(failing ? .failure(99) : .finished) }
  }

  func releaseSubscribers() {}

  func misbehave(sendingValue: Bool) -> [String] {
    guard lock.withLock({ completed }), let sendCompletion else { return [] }
    if sendingValue { sendValue(0) }
    sendCompletion(.finished)
    return []
  }
}

/// A tiny lock for test-side classes: Foundation's `NSLock` (a pthread mutex), which the thread
/// sanitizer sees. (The standard library's `Mutex` takes contended locks inside the
/// uninstrumented runtime on Linux, so the sanitizer would report false races.)
final class NSLockBox: Sendable {
  private let lock = NSLock()

  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
