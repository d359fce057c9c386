/// A subscription as a merge's machine keeps it (an input's, or the upstream's): a class
/// reference and the subscription's type, so that copying it is a retain and destroying it a
/// release.
///
/// An `any Subscription` is an opaque existential: every copy, assignment and destroy of one
/// (and of an `Optional` of one), even in code specialized for the merge, runs the value
/// witnesses of the runtime's generic `Optional` and existential boxes (about 400 instructions
/// per `Just(i).flatMap { Just($0) }`, and the machine holding them was not loadable, so its
/// destroy went through its own value witness too: issue 30). Here the type travels as an
/// existential metatype (trivial) and the subscription as `AnyObject`; `request` and `cancel`
/// open the type and call the subscription through its own witness table. A subscription that
/// is not a class (rare: Combine's are classes) is kept in the core's ``BoxedSubscription``.
@usableFromInline
struct MergeSubscription {
  /// The subscription itself (if its type is a class) or its box.
  @usableFromInline
  let object: AnyObject
  /// The type of `object` as a subscription.
  @usableFromInline
  let type: any Subscription.Type

  /// Keeps `subscription`. Not inlinable: it opens the existential, which runs the same
  /// unspecialized code wherever it is called from.
  @usableFromInline
  init(_ subscription: any Subscription) {
    self = Self.make(subscription)
  }

  /// Keeps `object`, a `type`.
  @usableFromInline
  init(object: AnyObject, type: any Subscription.Type) {
    self.object = object
    self.type = type
  }

  /// `subscription` with its type at hand.
  @usableFromInline
  static func make<Kept: Subscription>(_ subscription: Kept) -> MergeSubscription {
    guard Kept.self is AnyObject.Type else {
      return MergeSubscription(
        object: BoxedSubscription(subscription), type: BoxedSubscription.self)
    }
    return MergeSubscription(
      object: unsafeBitCast(subscription, to: AnyObject.self), type: Kept.self)
  }

  /// Asks the subscription for `demand`.
  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    type.requestAsMergeSubscription(object, demand)
  }

  /// Cancels the subscription.
  @usableFromInline
  func cancel() {
    type.cancelAsMergeSubscription(object)
  }
}

extension Subscription {
  /// Asks `object`, a `Self` kept by a ``MergeSubscription``, for `demand` (called on the
  /// kept type, which opens it).
  @usableFromInline
  static func requestAsMergeSubscription(_ object: AnyObject, _ demand: Subscribers.Demand) {
    unsafeBitCast(object, to: Self.self).request(demand)
  }

  /// Cancels `object`, a `Self` kept by a ``MergeSubscription``.
  @usableFromInline
  static func cancelAsMergeSubscription(_ object: AnyObject) {
    unsafeBitCast(object, to: Self.self).cancel()
  }
}
