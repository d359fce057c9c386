import Synchronization

/// The subscription of publishers that emit one value and finish (``Just``,
/// `Result.Publisher`, `Optional.Publisher`): the value goes out on the first demand, followed
/// by `.finished`; cancel before that delivers nothing.
///
/// As in Combine, the value is delivered from inside the `request(_:)` that asks for it, even
/// one made from inside `receive(subscription:)`: a subscriber that requests and then cancels
/// there has received the value and the completion before its cancel. The delivery is still
/// specialized for the pipeline: it runs in the `delivery` closure, created in the publisher's
/// (specialized) `receive(subscriber:)`.
///
/// The class is not generic: a generic class's deinitializer is never specialized, and
/// destroying an `Optional<Downstream>` field there looked up the optional's metadata in the
/// runtime's cache on every subscription (about a thousand instructions, a third of a
/// `Just(x).map.sink` and cancel). The subscriber and the value wait in two ``TypedSlot``s,
/// each typed by a generic parameter itself, and the `delivery` closure that reads them is
/// made in the publisher's (specialized) `receive(subscriber:)` and captures nothing, so it
/// costs no allocation (it captured the subscriber and the value: a context allocated per
/// subscription, two of `Just(i).flatMap { Just($0) }`'s ten).
@usableFromInline
final class SingleValueSubscription: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked Sendable: `phase` decides, atomically, the one thread that may touch `delivery`
  // and the slots after initialization, so their accesses need no runtime exclusivity checks.
  /// Where the subscription is in its life; the raw values of an atomic.
  @usableFromInline
  enum Phase: UInt8 {
    /// Held by a reader of the mirror (it reads the value through `delivery`); no demand yet.
    case held
    /// Held by a reader of the mirror, and demand arrived: the reader delivers when done.
    case heldWithDemand
    /// Waiting for demand.
    case waiting
    /// Delivered or cancelled.
    case done
    /// Delivering the value: a cancel now (from inside `receive(_:)`, or from another thread)
    /// only moves to `done`, which keeps the completion from being sent.
    case delivering
  }

  /// What a call of `delivery` does.
  @usableFromInline
  enum Action: UInt8 {
    /// Sends the value, then `.finished` unless the subscriber cancelled meanwhile.
    case deliver
    /// Tells the subscriber that no delivery will run (after a cancel).
    case detach
    /// Writes the value to the pointer, for the mirror; delivers nothing.
    case reflect
  }

  @usableFromInline
  let phase = Atomic<UInt8>(Phase.waiting.rawValue)

  /// Acts on the subscriber and the value in the slots (see ``Action``); writes the value to
  /// the pointer for `.reflect` only. A delivery or a detach takes both out of the slots (releasing them when
  /// it returns). With `.detach`, it only tells the subscriber that no delivery will run (see
  /// `handOver(_:reportingDetachTo:)`, with which the publishers hand this subscription over).
  /// `nil` once a delivery or a detach ran.
  @usableFromInline
  @exclusivity(unchecked)
  var delivery: Delivery?

  /// The subscriber, typed `Downstream`, until a delivery or a detach takes it.
  @usableFromInline
  @exclusivity(unchecked)
  var subscriber = TypedSlot()

  /// The value, typed `Downstream.Input`, until a delivery or a detach takes it.
  @usableFromInline
  @exclusivity(unchecked)
  var value = TypedSlot()

  /// The closure behind ``delivery``, in a struct: stored bare in an optional, a closure is
  /// re-abstracted (a thunk allocation per store and call). The reflected value comes back
  /// through the pointer, not as a result: an `Any?` returned by every delivery was destroyed
  /// through the runtime's generic `Optional` witnesses (about 40 instructions per `Just`).
  @usableFromInline
  struct Delivery {
    @usableFromInline
    let run: (SingleValueSubscription, Action, _ reflected: UnsafeMutablePointer<Any?>?) -> Void

    @inlinable
    init(
      _ run: @escaping (SingleValueSubscription, Action, UnsafeMutablePointer<Any?>?) -> Void
    ) {
      self.run = run
    }
  }

  /// Its `description`, as Combine's: "Just", "Optional" or "Once" (`Result.Publisher`).
  @usableFromInline
  let name: StaticString

  @inlinable
  init<Downstream: Subscriber>(
    downstream: Downstream, value: Downstream.Input, name: StaticString = "Just"
  ) {
    self.name = name
    subscriber.store(downstream)
    self.value.store(value)
    // Captures nothing: the subscriber and the value come out of the subscription's slots.
    delivery = Delivery { subscription, action, reflected in
      switch action {
      case .deliver:
        let downstream = subscription.subscriber.take(Downstream.self)
        _ = downstream.receive(subscription.value.take(Downstream.Input.self))
        if subscription.endDelivery() {
          downstream.receive(completion: .finished)
        } else {
          reportDetach(to: downstream)
        }
      case .detach:
        let downstream = subscription.subscriber.take(Downstream.self)
        subscription.value.clear()
        reportDetach(to: downstream)
      case .reflect:
        reflected?.pointee = subscription.value.copy(Downstream.Input.self)
      }
    }
  }

  deinit {
    // Subscribers and values not taken by a delivery or a detach (a subscription dropped
    // without a cancel).
    subscriber.clear()
    value.clear()
  }

  @usableFromInline
  var description: String { "\(name)" }

  /// As Combine's: one unlabelled child, the value, until it is delivered (or cancelled).
  @usableFromInline
  var customMirror: Mirror {
    let value = reflectedValue()
    return Mirror(self, unlabeledChildren: value.map { [$0] } ?? [])
  }

  @usableFromInline
  var playgroundDescription: Any { description }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    // As in Combine, where these publishers stop the program on a request of zero.
    checkAPI(
      demand != .none, "\(name) was asked for zero values. A request must be for one or more.")
    var current = phase.load(ordering: .acquiring)
    while true {
      let next: Phase
      switch Phase(rawValue: current) {
      case .held: next = .heldWithDemand
      case .waiting: next = .delivering
      default: return
      }
      let (exchanged, original) = phase.compareExchange(
        expected: current, desired: next.rawValue, ordering: .acquiringAndReleasing)
      if exchanged {
        if next == .delivering { deliver() }
        return
      }
      current = original
    }
  }

  @inlinable
  func cancel() {
    let previous = phase.exchange(Phase.done.rawValue, ordering: .acquiringAndReleasing)
    // While held, the reader owns `delivery` and cleans up when it lets go; while delivering,
    // `deliver()` already took it, and `endDelivery()` sees the cancel.
    if previous == Phase.waiting.rawValue { detach() }
  }

  /// The value, read while no delivery can start; `nil` once delivered or cancelled, or while a
  /// delivery runs. A request made meanwhile is served here when the read ends (by the
  /// reading thread), a cancel cleans up here.
  @usableFromInline
  func reflectedValue() -> Any? {
    let (exchanged, _) = phase.compareExchange(
      expected: Phase.waiting.rawValue, desired: Phase.held.rawValue,
      ordering: .acquiringAndReleasing)
    guard exchanged else { return nil }
    var value: Any?
    if let delivery { delivery.run(self, .reflect, &value) }
    let (released, original) = phase.compareExchange(
      expected: Phase.held.rawValue, desired: Phase.waiting.rawValue,
      ordering: .acquiringAndReleasing)
    if !released {
      if original == Phase.heldWithDemand.rawValue {
        phase.store(Phase.delivering.rawValue, ordering: .releasing)
        deliver()
      } else {
        detach()
      }
    }
    return value
  }

  /// After a cancel, with no delivery running: tells the subscriber, and lets go of it.
  @inlinable
  func detach() {
    let delivery = self.delivery
    self.delivery = nil
    delivery?.run(self, .detach, nil)
  }

  /// Runs the delivery once, releasing the subscriber and the value when it returns (rule 2:
  /// nothing after cancel, even a cancel made from inside `receive(_:)`).
  @inlinable
  func deliver() {
    let delivery = self.delivery
    self.delivery = nil
    delivery?.run(self, .deliver, nil)
  }

  /// Called after the value was delivered: whether the completion follows (no cancel came).
  @inlinable
  func endDelivery() -> Bool {
    phase.exchange(Phase.done.rawValue, ordering: .acquiringAndReleasing)
      == Phase.delivering.rawValue
  }
}
