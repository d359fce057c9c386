/// What `switchToLatest()` attaches to its upstream and hands its downstream: one object, as in
/// Combine, where the downstream's subscription is also the upstream's subscriber
/// (`"SwitchToLatest"` in a debugger or a playground, no children; its inputs' subscribers name
/// it as their `parentSubscription`). It passes the upstream's events, and the downstream's
/// requests and cancel, to the ``MergeStorage`` that runs the operator.
@usableFromInline
final class SwitchToLatestSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, NamedReflection
where
  Upstream.Output: Publisher, Upstream.Output.Output == Downstream.Input,
  Upstream.Output.Failure == Downstream.Failure, Upstream.Failure == Downstream.Failure
{
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  @usableFromInline
  let storage: MergeStorage<Downstream>

  /// Subscribes the upstream value (pointed to) as the new input: made here, where the types
  /// are known, so that the work is specialized (see ``MergeEntry``).
  @usableFromInline
  let subscribeInput: (MergeStorage<Downstream>, UnsafeRawPointer) -> Void

  @inlinable
  init(storage: MergeStorage<Downstream>) {
    self.storage = storage
    subscribeInput = { storage, value in
      storage.subscribeNewInput(from: value, route: MergeValuesThroughEntry.self) {
        (input: Upstream.Output) in input
      }
    }
  }

  @usableFromInline
  var description: String { storage.description }

  /// The storage's identifier, which the inputs' subscribers show as their parent.
  @usableFromInline
  var combineIdentifier: CombineIdentifier { CombineIdentifier(storage) }

  // MARK: Subscriber (upstream side)

  @inlinable
  func receive(subscription: any Subscription) {
    storage.enter(.upstreamSubscription, subscription: subscription)
  }

  @inlinable
  func receive(_ input: Upstream.Output) -> Subscribers.Demand {
    var input = input  // An address that lives through the call (see `MergeStorage.enter`).
    withUnsafeMutablePointer(to: &input) { subscribeInput(storage, UnsafeRawPointer($0)) }
    // The upstream is asked for values explicitly (see `MergeStateMachine`).
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Upstream.Failure>) {
    storage.completionEntry(storage, completion, nil)
  }

  // MARK: Subscription (downstream side)

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    storage.request(demand)
  }

  @inlinable
  func cancel() {
    storage.cancel()
  }
}
