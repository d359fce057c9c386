/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to wrap an existing subscriber whose details you don't want to
/// expose, or to build a subscriber from closures.
///
/// ```swift
/// let subscriber = AnySubscriber<Int, Never>(
///   receiveSubscription: { $0.request(.unlimited) },
///   receiveValue: { print($0); return .none },
///   receiveCompletion: { _ in print("done") })
/// [1, 2].publisher.subscribe(subscriber)
/// // Prints: 1, 2, done
/// ```
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  let box: AnySubscriberBox<Input, Failure>

  /// The identifier of the wrapped subscriber, or a new one for closure-based subscribers.
  public let combineIdentifier: CombineIdentifier

  /// A textual representation of the wrapped subscriber (its type's name when it has no
  /// description), or "Anonymous AnySubscriber" for one built from closures.
  public var description: String { box.description }

  /// The wrapped subscriber's mirror (one without children when it has none of its own), or
  /// the mirror of the description for one built from closures.
  public var customMirror: Mirror { box.customMirror }

  /// The wrapped subscriber's playground description (its description when it has none), or
  /// the description for one built from closures.
  public var playgroundDescription: Any { box.playgroundDescription }

  /// Creates a type-erasing subscriber to wrap an existing subscriber.
  @inlinable
  public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
    if let erased = s as? AnySubscriber<Input, Failure> {
      self = erased
    } else {
      box = WrappedSubscriberBox(s)
      combineIdentifier = s.combineIdentifier
    }
  }

  /// Creates a type-erasing subscriber that forwards everything to a subject, as
  /// `publisher.subscribe(subject)` does: the subject receives a subscription through
  /// ``Subject/send(subscription:)`` (the first subscription only; its requests and cancel reach
  /// the upstream), values through ``Subject/send(_:)`` and the first completion through
  /// ``Subject/send(completion:)``. As in Combine, the subject is held weakly, and the
  /// subscriber's description is "Subject".
  public init<S: Subject>(_ s: S) where Input == S.Output, Failure == S.Failure {
    self.init(SubjectSubscriber(subject: s))
  }

  /// Creates a type-erasing subscriber that executes the provided closures.
  public init(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    box = ClosureSubscriberBox(
      receiveSubscription: receiveSubscription, receiveValue: receiveValue,
      receiveCompletion: receiveCompletion)
    combineIdentifier = CombineIdentifier()
  }

  /// Forwards the subscription to the wrapped subscriber.
  @inlinable
  public func receive(subscription: any Subscription) {
    box.receive(subscription: subscription)
  }

  /// Forwards the value to the wrapped subscriber and returns its demand.
  @inlinable
  public func receive(_ value: Input) -> Subscribers.Demand {
    box.receive(value)
  }

  /// Forwards the completion to the wrapped subscriber.
  @inlinable
  public func receive(completion: Subscribers.Completion<Failure>) {
    box.receive(completion: completion)
  }
}

/// The erased storage of ``AnySubscriber``: subclasses forward to a subscriber or to closures.
@usableFromInline
class AnySubscriberBox<Input, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: the box adds no state of its own; thread-safety is the wrapped
  // subscriber's, as for any subscriber.
  @usableFromInline
  init() {}

  @usableFromInline
  var description: String { "Anonymous AnySubscriber" }

  @usableFromInline
  var customMirror: Mirror { Mirror(reflecting: description) }

  @usableFromInline
  var playgroundDescription: Any { description }

  @usableFromInline
  func receive(subscription: any Subscription) {}

  @usableFromInline
  func receive(_ value: Input) -> Subscribers.Demand { .none }

  @usableFromInline
  func receive(completion: Subscribers.Completion<Failure>) {}
}

@usableFromInline
final class WrappedSubscriberBox<S: Subscriber>: AnySubscriberBox<S.Input, S.Failure>,
  @unchecked Sendable
{
  @usableFromInline
  let subscriber: S

  @inlinable
  init(_ subscriber: S) {
    self.subscriber = subscriber
  }

  @usableFromInline
  override var description: String {
    (subscriber as? any CustomStringConvertible)?.description ?? String(describing: S.self)
  }

  @usableFromInline
  override var customMirror: Mirror {
    (subscriber as? any CustomReflectable)?.customMirror ?? Mirror(subscriber, children: [:])
  }

  @usableFromInline
  override var playgroundDescription: Any {
    (subscriber as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
  }

  @inlinable
  override func receive(subscription: any Subscription) {
    subscriber.receive(subscription: subscription)
  }

  @inlinable
  override func receive(_ value: S.Input) -> Subscribers.Demand {
    subscriber.receive(value)
  }

  @inlinable
  override func receive(completion: Subscribers.Completion<S.Failure>) {
    subscriber.receive(completion: completion)
  }
}

@usableFromInline
final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBox<Input, Failure>,
  @unchecked Sendable
{
  let receiveSubscriptionBody: ((any Subscription) -> Void)?
  let receiveValueBody: ((Input) -> Subscribers.Demand)?
  let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?

  init(
    receiveSubscription: ((any Subscription) -> Void)?,
    receiveValue: ((Input) -> Subscribers.Demand)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  ) {
    receiveSubscriptionBody = receiveSubscription
    receiveValueBody = receiveValue
    receiveCompletionBody = receiveCompletion
  }

  override func receive(subscription: any Subscription) {
    receiveSubscriptionBody?(subscription)
  }

  override func receive(_ value: Input) -> Subscribers.Demand {
    receiveValueBody?(value) ?? .none
  }

  override func receive(completion: Subscribers.Completion<Failure>) {
    receiveCompletionBody?(completion)
  }
}
